/**
 * Fills one parameter of a path template: `{name}` takes the value as one
 * percent-encoded segment; a greedy `{name+}` (an id holding `/`) takes it as
 * several, each segment encoded and the `/` between them kept.
 */
export function fillParam(template: string, name: string, value: string): string {
  const greedy = `{${name}+}`;
  if (template.includes(greedy))
    return template.replace(greedy, value.split("/").map(encodeURIComponent).join("/"));
  return template.replace(`{${name}}`, encodeURIComponent(value));
}

/** The parameter names of a template in order, without a greedy parameter's `+`. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!.replace(/\+$/, ""));
}

/** True when the template's parameter `name` is greedy (`{name+}`): its value may hold `/`. */
export function isGreedyParam(template: string, name: string): boolean {
  return template.includes(`{${name}+}`);
}

/** How a greedy parameter is sent, for tool and OpenAPI descriptions. */
export const GREEDY_PARAM_TEXT =
  "It may span several path segments (an id holding `/`, such as `projects/a.ipynb`): each segment is percent-encoded and the `/` between them is sent as is.";
