/**
 * The control-plane routes of the test double, per episode: its request
 * journal (filtered, counted for verification, cleared) and its latency and
 * faults (read, replaced, cleared back to the server's). Kept apart from the
 * episode routes so each changes for its own reason.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { DocumentError, UserError } from "../../errors/user-error.js";
import { safeDecode } from "../../util/safe-decode.js";
import { type EpisodeStore, isMissing } from "../episode-store.js";
import { type FaultPlan, parseFaultPlan } from "../fault-plan.js";
import { parseJournalFilter } from "../request-journal.js";
import { sendJson, sendTooLarge } from "../send-response.js";
import type { TestDouble } from "../test-double.js";
import { parseTwinBody, readBoundedBody, tooLargeBody } from "./read-body.js";

/** The routes this module answers, as the control plane lists them. */
export const DOUBLE_ROUTES = [
  "DELETE /__apptwin/episodes/:id/faults",
  "DELETE /__apptwin/episodes/:id/requests",
  "GET /__apptwin/episodes/:id/faults",
  "GET /__apptwin/episodes/:id/requests",
  "GET /__apptwin/episodes/:id/requests/count",
  "PUT /__apptwin/episodes/:id/faults",
];

/** The bound on a faults document sent over the control plane: 256 KiB. */
const FAULTS_BODY_BYTES = 256 * 1024;

const ROUTE = /^episodes\/([^/]+)\/(requests|requests\/count|faults)$/;

/** The faults document a PUT sends, or null once the request was answered with why it is not one. */
async function readFaults(req: IncomingMessage, res: ServerResponse, id: string): Promise<FaultPlan | null> {
  const read = await readBoundedBody(req, FAULTS_BODY_BYTES);
  if (read.tooLarge) {
    sendTooLarge(req, res, tooLargeBody(FAULTS_BODY_BYTES));
    return null;
  }
  const body = parseTwinBody("application/json", read.bytes);
  if (body?.kind !== "json") {
    sendJson(req, res, 400, {
      error: "invalid",
      message: `The faults of episode "${id}" were not set: the body must be a faults document such as {"schema_version":1,"routes":[]}.`,
    });
    return null;
  }
  try {
    return parseFaultPlan(body.value, "faults");
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const problems = err instanceof DocumentError ? err.issues.map((i) => i.message) : [err.message];
    sendJson(req, res, 400, {
      error: "invalid",
      message: `The faults of episode "${id}" were not set: ${problems.join("; ")}`,
      problems,
    });
    return null;
  }
}

/**
 * Answers a request of the double's routes (`rest` is the path after `/__apptwin/`); false when the path is
 * not one of them, so the control plane goes on.
 */
export async function handleDoubleControl(
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  method: string,
  store: EpisodeStore,
  double: TestDouble,
): Promise<boolean> {
  const m = ROUTE.exec(rest);
  if (!m) return false;
  const id = safeDecode(m[1]!);
  const what = m[2]!;
  const allowed =
    what === "requests/count" ? ["GET"] : what === "requests" ? ["GET", "DELETE"] : ["GET", "PUT", "DELETE"];
  if (!allowed.includes(method)) return false;
  const episode = await store.find(id);
  if (isMissing(episode)) {
    req.resume();
    sendJson(req, res, episode.status, episode.body);
    return true;
  }
  if (what === "faults") {
    if (method === "PUT") {
      const plan = await readFaults(req, res, id);
      if (plan === null) return true;
      double.setPlan(episode, plan);
    } else {
      req.resume();
      if (method === "DELETE") double.setPlan(episode, null);
    }
    const { plan, source } = double.planOf(episode);
    sendJson(req, res, 200, { id, source, faults: plan, explain: double.describe(episode) });
    return true;
  }
  req.resume();
  const journal = double.journal(episode);
  if (method === "DELETE") {
    journal.clear();
    sendJson(req, res, 200, { id, cleared: true });
    return true;
  }
  const params = new URL(req.url ?? "/", "http://twin.invalid").searchParams;
  const parsed = parseJournalFilter(params);
  if ("problems" in parsed) {
    sendJson(req, res, 400, {
      error: "invalid",
      message: `The journal query is not valid: ${parsed.problems.join("; ")}.`,
      problems: parsed.problems,
    });
    return true;
  }
  if (what === "requests/count") {
    sendJson(req, res, 200, { id, filter: parsed.filter, count: journal.count(parsed.filter) });
    return true;
  }
  const limit = params.get("limit");
  const requests = journal.find(parsed.filter, limit === null ? undefined : Number(limit));
  sendJson(req, res, 200, {
    id,
    filter: parsed.filter,
    count: journal.count(parsed.filter),
    dropped: journal.dropped,
    requests,
  });
  return true;
}
