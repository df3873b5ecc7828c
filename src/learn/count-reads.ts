/**
 * Reads that count a collection, learned by hypothesis: an endpoint no collection lists or
 * reads by id, answered with one number every time (`{"count": 4}`), counts collection C when,
 * at every recorded moment, that number is how many of C's entities a plain list would show
 * under the read's query — read in C's query language, under a prefix its rules use (`where`
 * as `filter.where`). Two answers with different numbers are needed (one number matches many
 * things by chance), and exactly one collection must fit; otherwise the reads stay replayed.
 */
import { countEntities, countOf, queryPrefixes } from "../model/count-read.js";
import type { Collection, Entity } from "../model/model-schema.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";

/** A confirmed count read: the collection it counts, how, and the observations it explains. */
export interface LearnedCount {
  group: EndpointGroup;
  collection: string;
  count: NonNullable<Collection["counts"]>[number];
  explained: Observation[];
}

/** Every count read the recording confirms, by group, in the groups' order. */
export function learnCountReads(
  groups: EndpointGroup[],
  collections: Collection[],
  snapshots: Map<Observation, Map<string, Entity[]>>,
): LearnedCount[] {
  const out: LearnedCount[] = [];
  for (const g of groups) {
    if (g.method !== "GET" || g.params.length > 0) continue;
    const reads = g.observations.filter((o) => snapshots.has(o));
    if (reads.length === 0 || reads.length !== g.observations.filter((o) => o.status < 300).length) continue;
    const answers = reads.map((o) => countOf(o.response.kind === "json" ? o.response.value : undefined)!);
    if (new Set(answers.map((a) => a.key)).size !== 1 || new Set(answers.map((a) => a.n)).size < 2) continue;
    const fits: LearnedCount[] = [];
    for (const c of collections) {
      if (!reads.every((o) => snapshots.get(o)!.has(c.name))) continue;
      const prefix = queryPrefixes(c.query).find((p) =>
        reads.every((o, i) => {
          const got = countEntities(c, snapshots.get(o)!.get(c.name)!, o.query, p);
          return "n" in got && got.n === answers[i]!.n;
        }),
      );
      if (!prefix) continue;
      const under = prefix.length > 0 ? `, its query read as ${prefix.join(".")}.…` : "";
      fits.push({
        group: g,
        collection: c.name,
        count: {
          tool_name: g.toolName,
          key: answers[0]!.key,
          query_prefix: prefix,
          explain: `${g.method} ${g.template} counts the ${c.name} a list would show${under}; confirmed by ${reads.length} recorded reads (${[...new Set(answers.map((a) => a.n))].join(", ")}).`,
        },
        explained: reads,
      });
    }
    if (fits.length === 1) out.push(fits[0]!);
  }
  return out;
}
