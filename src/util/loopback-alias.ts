/**
 * Two origins that are the same machine and port under different host names
 * (`localhost` and `127.0.0.1`, `[::1]`): the browser treats them as different
 * origins (cookies, storage, CORS, same-origin checks), and so does apptwin —
 * consistently — but a user rarely expects it, so messages that refuse or
 * leave out such an origin say why.
 */

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function parts(origin: string): { scheme: string; host: string; port: string } | null {
  try {
    const u = new URL(origin);
    const port = u.port || (u.protocol === "https:" || u.protocol === "wss:" ? "443" : "80");
    return { scheme: u.protocol, host: u.hostname, port };
  } catch {
    return null;
  }
}

/** True when two different origins are both loopback host names with the same scheme and port. */
export function isLoopbackAlias(a: string, b: string): boolean {
  const x = parts(a);
  const y = parts(b);
  if (!x || !y || x.host.toLowerCase() === y.host.toLowerCase()) return false;
  return LOOPBACK.test(x.host) && LOOPBACK.test(y.host) && x.scheme === y.scheme && x.port === y.port;
}

/** The sentence that explains a loopback alias of `app`, or "" when `other` is not one. */
export function loopbackAliasNote(other: string, app: string): string {
  if (!isLoopbackAlias(other, app)) return "";
  const host = (o: string) => parts(o)!.host;
  return ` (${host(other)} and ${host(app)} are this same machine and port, but different origins to the browser and to apptwin; use one host name, the one the scenario starts on, everywhere)`;
}
