/**
 * The conventions matrix (issue 17 items 1–2): one tiny app per API style the issue names (test/support/api-styles),
 * each on a real loopback socket, a training and a held-out scenario sent over real HTTP and recorded as Evidence;
 * a model learned from the training recording is scored on the held-out one (status and body, and for the styles
 * whose answers carry state in headers, X-Total-Count and Link too). The exact figure per style and every request
 * the twin answers otherwise (with how it answered) are asserted, a ratchet like test/fidelity-real.test.ts: a
 * change that loses a request fails here, one that gains one updates the table on purpose
 * (docs/specs/fidelity/verification.md keeps the matrix).
 */
import createDebug from "debug";
import { beforeAll, describe, expect, it } from "vitest";
import { type StyleResult, scoreStyle } from "./support/api-styles/score.js";
import { type ApiStyle, stylesA } from "./support/api-styles/styles-a.js";
import { stylesB } from "./support/api-styles/styles-b.js";

const debug = createDebug("apptwin:api-styles");
const STYLES: ApiStyle[] = [...stylesA, ...stylesB];

/** Per style: held-out requests answered like the app, of all, and each one answered otherwise (request order). */
const EXPECTED: Record<string, { total: [number, number]; misses: string[] }> = {
  "cms-filters-dollar": {
    total: [8, 14],
    misses: [
      "POST /api/articles <- withheld 501",
      "GET /api/articles/kb5e0xdeq891sia8vexaym7r <- state 404",
      "GET /api/articles?filters[status][$eq]=published&pagination[page]=2&pagination[pageSize]=2 <- state 200",
      "PUT /api/articles/3wjqsrjiwgr69swuog0bbu4k <- miss 501",
      "GET /api/articles?filters[views][$gte]=150&sort=views:desc <- state 200",
      "GET /api/articles?sort=title:asc&pagination[page]=3&pagination[pageSize]=2 <- state 200",
    ],
  },
  "platform-filter-underscore": {
    total: [13, 14],
    misses: [
      // The training's meta=total_count reads never filtered: whole list or matches is undecided (explained 501).
      "GET /items/articles?filter[author][_neq]=ann&meta=total_count <- miss 501",
    ],
  },
  "sheet-where-pageinfo": {
    total: [12, 13],
    misses: ["GET /api/v1/db/data/noco/blog/articles?where=(Title,like,%25EP%25) <- state 200"],
  },
  "rest-db-op-dot-value": {
    total: [13, 13],
    misses: [],
  },
  "mock-rest-underscore": {
    total: [12, 13],
    misses: ["GET /articles?author=bob&_sort=title&_order=asc <- miss 501"],
  },
  "cursor-next-cursor": {
    total: [11, 11],
    misses: [],
  },
  "cursor-page-info": {
    total: [11, 11],
    misses: [],
  },
  "keyed-map": {
    total: [10, 10],
    misses: [],
  },
  "full-text-search": {
    total: [10, 10],
    misses: [],
  },
  "accept-versioned": {
    total: [9, 11],
    misses: [
      // The training never deleted: no route for it, so the article stays in the list after it.
      "DELETE /api/articles/4 <- miss 404",
      "GET /api/articles <- state 200",
    ],
  },
  "cache-buster": {
    total: [6, 9],
    misses: [
      "DELETE /api/articles/4 <- miss 404",
      "GET /api/articles?_=<ms> <- state 200",
      "GET /api/articles/4?_=<ms> <- state 200",
    ],
  },
};

const results = new Map<string, StyleResult>();

beforeAll(async () => {
  for (const style of STYLES) results.set(style.name, await scoreStyle(style));
  debug(
    "conventions matrix\n%s",
    STYLES.map(
      (s) => `${s.name.padEnd(28)} ${results.get(s.name)!.matched}/${results.get(s.name)!.requests}`,
    ).join("\n"),
  );
}, 120_000);

describe("held-out fidelity per API convention, from real HTTP exchanges with tiny apps", () => {
  for (const style of STYLES) {
    it(`${style.name}: ${style.convention}`, () => {
      const r = results.get(style.name) as StyleResult;
      for (const d of r.report.differences) debug("%s %s %s %o", style.name, d.request, d.field, d.expected);
      expect({ total: [r.matched, r.requests], misses: r.misses }).toEqual(EXPECTED[style.name]);
    });
  }
});
