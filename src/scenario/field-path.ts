/** Field paths in display form: `steps[3].headers.authorization`, `secrets[0].env`, `json["a b"]`. */

/** One step of a path into a document: an object key or an array index. */
export type PathSegment = string | number;

const PLAIN = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Formats a path for messages: indices in brackets, plain keys after dots, other keys quoted. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (PLAIN.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
