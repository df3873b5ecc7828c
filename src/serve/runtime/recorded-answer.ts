/**
 * A recorded answer (status, content type, body) replayed as a twin response:
 * JSON unless the content type says otherwise and the body is text. Shared by
 * the collection's not-found answer and validation failures.
 */
import type { TwinResponse } from "./twin-types.js";

/** Builds a TwinResponse from a recorded status, content type (default JSON) and body (deep-copied). */
export function recordedAnswer(
  recorded: { status: number; content_type?: string | null; body: unknown },
  servedBy: TwinResponse["served_by"],
  rule: string,
): TwinResponse {
  const contentType = recorded.content_type ?? "application/json";
  const isJson = /json/i.test(contentType) || typeof recorded.body !== "string";
  return {
    status: recorded.status,
    headers: { "content-type": contentType },
    // A recorded answer with no body (Redmine's 404) has none here either, not a JSON `null`.
    body:
      recorded.body === null
        ? null
        : isJson
          ? { kind: "json", value: structuredClone(recorded.body) }
          : { kind: "text", text: String(recorded.body), content_type: contentType },
    served_by: servedBy,
    rule,
  };
}
