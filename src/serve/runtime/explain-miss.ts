/**
 * Answers that explain themselves: a request no route serves gets a 404
 * listing every route and the nearest one; a withheld endpoint gets a 501
 * saying why it is withheld and what to record to serve it.
 */
import type { Endpoint, Model } from "../../model/model-schema.js";
import { nearestRoute, routeTable } from "./route-table.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

/** Every route of the model as `METHOD /template`, sorted. */
export function routeLabels(model: Model): string[] {
  return routeTable(model).map((r) => r.label);
}

/** The 404 for a request no route serves: every route and the nearest match. */
export function explainMiss(
  model: Model,
  req: TwinRequest,
  detail?: { reason: string; recorded: string[] },
): TwinResponse {
  const asked = `${req.method.toUpperCase()} ${req.path}`;
  const nearest = nearestRoute(model, req.method, req.path)?.label ?? null;
  const message = detail
    ? `${asked} matches ${detail.reason}, but no answer was recorded for this exact request; the recorded ones are listed in "recorded"`
    : nearest
      ? `No route of this twin serves ${asked}. The nearest route is ${nearest}.`
      : `No route of this twin serves ${asked}; the twin has no routes.`;
  const value: Record<string, unknown> = { error: "no_route", message, request: asked, nearest };
  if (detail) value.recorded = detail.recorded;
  value.routes = routeLabels(model);
  return {
    status: 404,
    headers: { "content-type": "application/json" },
    body: { kind: "json", value },
    served_by: "miss",
    rule: null,
  };
}

/** The 501 for a withheld endpoint: the reason code and the hint on what to record. */
export function explainWithheld(endpoint: Endpoint): TwinResponse {
  const reason = endpoint.withheld?.reason ?? "not_served";
  const hint =
    endpoint.withheld?.hint ?? "Record this request and read its effect back, then rebuild the bundle.";
  return {
    status: 501,
    headers: { "content-type": "application/json" },
    body: {
      kind: "json",
      value: {
        error: "not_served",
        message: `apptwin does not serve ${endpoint.method} ${endpoint.template}: the recording did not prove its effect (${reason}).`,
        reason,
        hint,
      },
    },
    served_by: "withheld",
    rule: endpoint.tool_name,
  };
}
