/**
 * What the context-wide route does to a request in flight: decide whether
 * confinement refuses it (a write to another origin, a top-level navigation
 * off the allowed origins), answer a refused one without sending it, and
 * strip the request-step marker from the rest. The recorder remembers the
 * refusal before answering, so the record says why.
 */
import type { Request, Route } from "playwright-core";
import { type OriginPolicy, refusedNavigation, refusedWrite } from "./origin-policy.js";
import { REQUEST_STEP_MARKER } from "./transaction-record.js";

/** Why confinement refuses a request: the record's message, and the navigation's (which fails the step), if it is one. */
export interface RouteRefusal {
  message: string;
  navigation: string | null;
}

/** The refusal of a request by the origin policy, or null when it may be sent. */
export function routeRefusal(policy: OriginPolicy, request: Request): RouteRefusal | null {
  const write = refusedWrite(policy, request.method(), request.url());
  const navigation = isTopLevelNavigation(request) ? refusedNavigation(policy, request.url()) : null;
  const message = write ?? navigation;
  if (!message) return null;
  return { message, navigation };
}

/** Answers a refused request without sending it. */
export async function answerRefused(route: Route): Promise<void> {
  // A refused navigation (a form posted away, a link off the allowed
  // origins) is answered 204 in the browser, never sent: the page stays
  // where it was. Aborting it instead loads Chromium's error page, whose
  // late navigation could interrupt the scenario's next step.
  if (route.request().isNavigationRequest())
    await route.fulfill({ status: 204, body: "" }).catch(() => undefined);
  else await route.abort("blockedbyclient").catch(() => undefined);
}

/** HTTP Basic credentials sent unasked to one origin: the `Authorization` value and that origin. */
export interface SignIn {
  origin: string;
  authorization: string;
}

/** The `Authorization` a request to `url` is sent with unasked: the sign-in's, to its origin only, when it has none. */
export function signInFor(
  signIn: SignIn | null,
  url: string,
  headers: Record<string, string>,
): string | null {
  if (signIn === null || headers["authorization"] !== undefined) return null;
  try {
    return new URL(url).origin === new URL(signIn.origin).origin ? signIn.authorization : null;
  } catch {
    return null;
  }
}

/**
 * Sends an allowed request on, without the request-step marker header (the server never sees it), and with the
 * scenario's HTTP Basic sign-in to the start origin when it carries none. The sign-in goes unasked, as a browser
 * sends it once the protection space is known: Chromium cannot answer a challenge while the probe holds answers at
 * the response stage (it fails the page `ERR_INVALID_AUTH_CREDENTIALS`), so the challenge must never be needed.
 */
export async function continueWithoutMarker(route: Route, signIn: SignIn | null = null): Promise<void> {
  const request = route.request();
  const headers = request.headers();
  const authorization = signInFor(signIn, request.url(), headers);
  if (authorization !== null) {
    const { [REQUEST_STEP_MARKER]: _, ...all } = await request.allHeaders();
    await route.continue({ headers: { ...all, authorization } }).catch(() => undefined);
    return;
  }
  if (headers[REQUEST_STEP_MARKER] !== undefined) {
    const { [REQUEST_STEP_MARKER]: _, ...rest } = headers;
    await route.continue({ headers: rest }).catch(() => undefined);
    return;
  }
  await route.continue().catch(() => undefined);
}

function isTopLevelNavigation(request: Request): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame().parentFrame() === null;
  } catch {
    // A navigation issued before its frame exists is a new top-level page (a popup).
    return true;
  }
}
