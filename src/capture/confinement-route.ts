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

/** Sends an allowed request on, without the request-step marker header (the server never sees it). */
export async function continueWithoutMarker(route: Route): Promise<void> {
  const headers = route.request().headers();
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
