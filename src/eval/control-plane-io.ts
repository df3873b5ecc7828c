/**
 * A client of a running twin's control plane (`/__apptwin/`), the way an
 * outside grader reads an episode: create one, read its diff against the
 * seed, and check which bundle the twin serves. Answers are parsed at this
 * edge; an unreachable twin or an unknown episode is the user's to fix.
 */
import { z } from "zod";
import { UserError } from "../errors/user-error.js";
import type { EpisodeChange } from "../tasks/grade-changes.js";

const ChangeSchema = z.object({
  collection: z.string(),
  id: z.string(),
  kind: z.enum(["created", "updated", "deleted"]),
  before: z.record(z.string(), z.unknown()).optional(),
  after: z.record(z.string(), z.unknown()).optional(),
  fields: z.array(z.string()).optional(),
});
const DiffSchema = z.object({ id: z.string(), changes: z.array(ChangeSchema) });
const HealthSchema = z.object({ name: z.string() });
const RoutesSchema = z.object({ tools: z.array(z.string()) });

/** The control plane of the twin at `base` (its origin, e.g. `http://127.0.0.1:4310`). */
export class ControlPlane {
  private readonly base: string;

  constructor(base: string) {
    this.base = base.replace(/\/+$/, "");
  }

  private async call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const url = `${this.base}/__apptwin/${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? String(error);
      throw new UserError(
        "twin_unreachable",
        `No twin answers at ${this.base} (${why}); start one with apptwin serve DIR, or pass its address with --url`,
      );
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UserError(
        "not_a_twin",
        `${url} answered ${res.status} with a body that is not JSON; is ${this.base} an apptwin serve?`,
      );
    }
    return { status: res.status, json };
  }

  /** The name of the bundle the twin serves and its tool names. */
  async identity(): Promise<{ name: string; tools: string[] }> {
    const health = await this.call("GET", "health");
    const routes = await this.call("GET", "routes");
    const h = HealthSchema.safeParse(health.json);
    const r = RoutesSchema.safeParse(routes.json);
    if (!h.success || !r.success)
      throw new UserError(
        "not_a_twin",
        `${this.base}/__apptwin/ does not answer like an apptwin control plane`,
      );
    return { name: h.data.name, tools: r.data.tools };
  }

  /** Creates an episode with this id (PRNG seed 0). */
  async createEpisode(id: string): Promise<void> {
    const res = await this.call("POST", "episodes", { id });
    if (res.status !== 201)
      throw new Error(`the control plane refused episode ${id}: ${res.status} ${JSON.stringify(res.json)}`);
  }

  /** Every change of the episode from the seed. */
  async diff(id: string): Promise<EpisodeChange[]> {
    const res = await this.call("GET", `episodes/${encodeURIComponent(id)}/diff`);
    if (res.status === 404) {
      const known = (res.json as { episodes?: unknown }).episodes;
      const list = Array.isArray(known) ? known.join(", ") : "none";
      throw new UserError(
        "unknown_episode",
        `The twin at ${this.base} has no episode "${id}" (it has: ${list}); pass one of them with --episode`,
      );
    }
    if (res.status === 410) {
      const body = res.json as { message?: unknown; hint?: unknown };
      throw new UserError(
        "episode_evicted",
        typeof body.message === "string"
          ? body.message
          : `Episode "${id}" was evicted from the twin at ${this.base}`,
        typeof body.hint === "string" ? [body.hint] : [],
      );
    }
    const parsed = DiffSchema.safeParse(res.json);
    if (res.status !== 200 || !parsed.success)
      throw new Error(`the diff of episode ${id} answered ${res.status}: ${JSON.stringify(res.json)}`);
    return parsed.data.changes;
  }
}
