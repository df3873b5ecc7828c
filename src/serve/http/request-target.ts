/**
 * The path and query of a request target, as `new URL` reads them (WHATWG), without a URL per request for the
 * targets clients send: a plain origin-form path (and query) holding nothing `URL` would rewrite is taken as it
 * is; anything else (a dot segment, a character `URL` percent-encodes, a fragment, an absolute or `//` target)
 * goes through `URL` itself. Either way the result is the same.
 */

/** A request target's path, its query as `URL.search` gives it (`""` or `?…`), and the query's pairs. */
export interface RequestTarget {
  pathname: string;
  search: string;
  /** The query's name/value pairs, decoded as `URLSearchParams` does; empty when there is no query. */
  pairs(): [string, string][];
}

/** Path characters `URL` keeps as they are: unreserved, sub-delims, `:`, `@`, `/` and `%` (never decoded in a path). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
/** A segment `URL` would read as a dot segment, or begin to (`.`, `..`, `%2e`, also `.json`: left to `URL`). */
const DOT_SEGMENT = /\/(?:\.|%2e)/i;
/** Query characters `URL` keeps as they are: printable ASCII but space, `"`, `#`, `<`, `>`, `'`, `\` and backtick. */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%[\]{}|^]*$/;

/** The path and query of a request target (`req.url`); an origin-form target is a path even when it starts with `//`. */
export function requestTarget(target: string): RequestTarget {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? "" : target.slice(q + 1);
  if (
    path.charCodeAt(1) !== 47 /* "//": a URL reference would name a host */ &&
    PLAIN_PATH.test(path) &&
    !DOT_SEGMENT.test(path) &&
    (query === "" || PLAIN_QUERY.test(query))
  ) {
    const search = query === "" ? "" : `?${query}`;
    // URLSearchParams drops one leading "?" of its text: given the search, it reads the whole query.
    return {
      pathname: path,
      search,
      pairs: () => (search === "" ? [] : [...new URLSearchParams(search).entries()]),
    };
  }
  const url = new URL(
    target.startsWith("/") ? `http://twin.invalid${target}` : target,
    "http://twin.invalid",
  );
  return {
    pathname: url.pathname,
    search: url.search,
    pairs: () => (url.search === "" ? [] : [...url.searchParams.entries()]),
  };
}
