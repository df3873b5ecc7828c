/**
 * API styles, part two: a mock-server REST style with totals and Link in headers, two cursor paginations, a keyed
 * map, full-text search, an answer shaped by the Accept header, and a cache-buster — each a tiny app written from
 * the public conventions of its kind, with a training and a held-out scenario.
 */
import { type AppRequest, type Handler, json, type Row, seedArticles, sortRows, Table, test } from "./kit.js";
import type { ApiStyle } from "./styles-a.js";

const num = (v: string | null, d: number) => (v === null || v === "" ? d : Number(v));
const itemId = (req: AppRequest, base: string): number | null => {
  const rest = req.url.pathname.slice(base.length);
  return rest.startsWith("/") ? Number(rest.slice(1)) : null;
};

/** The item routes of a plain REST collection: read, patch, delete, each 404 with `missing` for an unknown id. */
function itemRoutes(t: Table, req: AppRequest, id: number, missing: unknown, view = (r: Row): unknown => r) {
  const row = t.get(id);
  if (!row) return json(404, missing);
  if (req.method === "GET") return json(200, view(row));
  if (req.method === "PATCH") return json(200, view(t.patch(id, req.body as Row)!));
  if (req.method === "DELETE") {
    t.remove(id);
    return { status: 204 };
  }
  return json(405, {});
}

// --- A mock REST server: _sort/_order, _page/_limit, f_like/_gte/_ne, X-Total-Count and Link headers ---

function mockRest(): Handler {
  const t = new Table(seedArticles());
  return (req, origin) => {
    const base = "/articles";
    if (!req.url.pathname.startsWith(base)) return json(404, {});
    const id = itemId(req, base);
    if (id !== null) {
      const r = itemRoutes(t, req, id, {});
      return r.status === 204 ? json(200, {}) : r;
    }
    if (req.method === "POST") return json(201, t.create(req.body as Row));
    const q = req.url.searchParams;
    let rows = t.rows.filter((r) =>
      [...q].every(([k, v]) => {
        if (k.startsWith("_")) return true;
        const m = /^(\w+?)_(like|gte|lte|ne)$/.exec(k);
        if (!m) return String(r[k]) === v;
        if (m[2] === "like") return new RegExp(v, "i").test(String(r[m[1]!]));
        return test(r[m[1]!], m[2]!, v);
      }),
    );
    if (q.get("_sort")) {
      const orders = (q.get("_order") ?? "").split(",");
      rows = sortRows(
        rows,
        q
          .get("_sort")!
          .split(",")
          .map((f, i) => [f, orders[i] === "desc" ? "desc" : "asc"]),
      );
    }
    const headers: Record<string, string> = {};
    if (q.has("_page") || q.has("_limit")) {
      const limit = num(q.get("_limit"), 10);
      const page = num(q.get("_page"), 1);
      headers["x-total-count"] = String(rows.length);
      headers["access-control-expose-headers"] = "X-Total-Count, Link";
      if (q.has("_page")) {
        const last = Math.max(1, Math.ceil(rows.length / limit));
        const at = (p: number) => {
          const u = new URL(req.url.pathname + req.url.search, origin);
          u.searchParams.set("_page", String(p));
          return u.href;
        };
        const links = [`<${at(1)}>; rel="first"`];
        if (page > 1) links.push(`<${at(page - 1)}>; rel="prev"`);
        if (page < last) links.push(`<${at(page + 1)}>; rel="next"`);
        links.push(`<${at(last)}>; rel="last"`);
        headers.link = links.join(", ");
      }
      rows = rows.slice((page - 1) * limit, page * limit);
    }
    return json(200, rows, headers);
  };
}

const mockRestStyle: ApiStyle = {
  name: "mock-rest-underscore",
  convention:
    "_sort/_order, _page/_limit, f_like/f_gte/f_ne, f=v, X-Total-Count and Link headers, bare arrays",
  app: mockRest,
  headers: ["x-total-count", "link"],
  train: [
    { path: "/articles" },
    { path: "/articles?status=published" },
    { path: "/articles?_sort=views&_order=desc" },
    { path: "/articles?_page=2&_limit=3" },
    { path: "/articles?_sort=title&_order=asc&_page=1&_limit=3" },
    { path: "/articles?title_like=ta" },
    { path: "/articles?views_gte=100&_sort=id&_order=desc" },
    { path: "/articles?author_ne=ann&_limit=2" },
    { path: "/articles/2" },
    { path: "/articles/99" },
    {
      method: "POST",
      path: "/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/articles" },
    { method: "PATCH", path: "/articles/3", body: { status: "archived" } },
    { path: "/articles/3" },
    { method: "DELETE", path: "/articles/6" },
    { path: "/articles/6" },
    { path: "/articles?_page=3&_limit=3&_sort=views&_order=asc" },
  ],
  heldout: [
    { path: "/articles?status=draft" },
    { path: "/articles?views_lte=90&_sort=title&_order=desc" },
    { path: "/articles?_page=2&_limit=2&_sort=views&_order=desc" },
    { path: "/articles?author=bob&_sort=title&_order=asc" },
    { path: "/articles/8" },
    {
      method: "POST",
      path: "/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/articles?status=published&_page=1&_limit=4" },
    { method: "PATCH", path: "/articles/1", body: { views: 500 } },
    { path: "/articles?views_gte=150&_sort=views&_order=desc" },
    { method: "DELETE", path: "/articles/4" },
    { path: "/articles?_page=4&_limit=2" },
    { path: "/articles/4" },
    { path: "/articles?title_like=EP&_limit=5" },
  ],
};

// --- Cursor pages: {items, next_cursor} with ?limit=&cursor=, the cursor an opaque token of the last id ---

const b64url = (s: string) => Buffer.from(s).toString("base64url");
const unb64url = (s: string) => Buffer.from(s, "base64url").toString("utf8");

function cursorItems(): Handler {
  const t = new Table(seedArticles());
  const base = "/v1/articles";
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, {});
    const id = itemId(req, base);
    if (id !== null)
      return itemRoutes(t, req, id, { error: { code: "not_found", message: "No such article" } });
    if (req.method === "POST") return json(201, t.create(req.body as Row));
    const q = req.url.searchParams;
    let rows = q.get("status") ? t.rows.filter((r) => r.status === q.get("status")) : t.rows;
    const cursor = q.get("cursor");
    if (cursor) {
      const after = (JSON.parse(unb64url(cursor)) as { id: number }).id;
      rows = rows.filter((r) => r.id > after);
    }
    const limit = num(q.get("limit"), 3);
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return json(200, {
      items: page,
      next_cursor: more ? b64url(JSON.stringify({ id: page[page.length - 1]!.id })) : null,
    });
  };
}

/** The path of the next page after the answer of step `at`, as a client follows a cursor. */
const nextPage =
  (at: number, query = "") =>
  (seen: unknown[]) =>
    `/v1/articles?${query}cursor=${(seen[at] as { next_cursor: string }).next_cursor}`;

const cursorItemsStyle: ApiStyle = {
  name: "cursor-next-cursor",
  convention: "{items, next_cursor} with ?limit=&cursor=<opaque token of the last id>",
  app: cursorItems,
  train: [
    { path: "/v1/articles?limit=100" },
    { path: "/v1/articles" },
    { path: nextPage(1) },
    { path: nextPage(2) },
    { path: "/v1/articles?limit=2&status=published" },
    { path: nextPage(4, "limit=2&status=published&") },
    { path: "/v1/articles/2" },
    { path: "/v1/articles/99" },
    {
      method: "POST",
      path: "/v1/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/v1/articles?limit=100" },
    { method: "DELETE", path: "/v1/articles/6" },
    { path: "/v1/articles?limit=4" },
    { path: nextPage(11, "limit=4&") },
  ],
  heldout: [
    { path: "/v1/articles?limit=2" },
    { path: nextPage(0, "limit=2&") },
    { path: nextPage(1, "limit=2&") },
    { path: "/v1/articles/8" },
    {
      method: "POST",
      path: "/v1/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/v1/articles?status=published&limit=3" },
    { path: nextPage(5, "status=published&limit=3&") },
    { method: "DELETE", path: "/v1/articles/4" },
    { path: "/v1/articles?limit=5" },
    { path: nextPage(8, "limit=5&") },
    { path: "/v1/articles/4" },
  ],
};

// --- Connection pages: {data, pageInfo:{endCursor, hasNextPage}} with ?first=&after= ---

function connection(): Handler {
  const t = new Table(seedArticles());
  const base = "/graph/articles";
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, {});
    const id = itemId(req, base);
    if (id !== null) return itemRoutes(t, req, id, { errors: [{ message: "Article not found" }] });
    if (req.method === "POST") return json(201, t.create(req.body as Row));
    const q = req.url.searchParams;
    let rows = t.rows;
    const after = q.get("after");
    if (after) {
      const last = Number(Buffer.from(after, "base64").toString("utf8").split(":")[1]);
      rows = rows.filter((r) => r.id > last);
    }
    const first = num(q.get("first"), 20);
    const page = rows.slice(0, first);
    const end = page[page.length - 1];
    return json(200, {
      data: page,
      pageInfo: {
        endCursor: end ? Buffer.from(`article:${end.id}`).toString("base64") : null,
        hasNextPage: rows.length > first,
      },
    });
  };
}

const after = (at: number, first: number) => (seen: unknown[]) =>
  `/graph/articles?first=${first}&after=${encodeURIComponent((seen[at] as { pageInfo: { endCursor: string } }).pageInfo.endCursor)}`;

const connectionStyle: ApiStyle = {
  name: "cursor-page-info",
  convention: "{data, pageInfo:{endCursor, hasNextPage}} with ?first=&after=<base64 cursor>",
  app: connection,
  train: [
    { path: "/graph/articles" },
    { path: "/graph/articles?first=3" },
    { path: after(1, 3) },
    { path: after(2, 3) },
    { path: "/graph/articles/2" },
    { path: "/graph/articles/99" },
    {
      method: "POST",
      path: "/graph/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/graph/articles" },
    { method: "DELETE", path: "/graph/articles/6" },
    { path: "/graph/articles?first=4" },
    { path: after(9, 4) },
  ],
  heldout: [
    { path: "/graph/articles?first=2" },
    { path: after(0, 2) },
    { path: after(1, 3) },
    { path: "/graph/articles/8" },
    {
      method: "POST",
      path: "/graph/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/graph/articles?first=5" },
    { path: after(5, 5) },
    { method: "DELETE", path: "/graph/articles/4" },
    { path: "/graph/articles?first=6" },
    { path: after(8, 6) },
    { path: "/graph/articles/4" },
  ],
};

// --- A keyed map: {"1": {...}, "2": {...}} lists, ?status= equality ---

function keyedMap(): Handler {
  const t = new Table(seedArticles());
  const base = "/api/articles";
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, {});
    const id = itemId(req, base);
    if (id !== null) return itemRoutes(t, req, id, { error: "Article not found" });
    if (req.method === "POST") return json(201, t.create(req.body as Row));
    const q = req.url.searchParams;
    const rows = t.rows.filter((r) => [...q].every(([k, v]) => String(r[k]) === v));
    return json(200, Object.fromEntries(rows.map((r) => [String(r.id), r])));
  };
}

const keyedMapStyle: ApiStyle = {
  name: "keyed-map",
  convention: '{"<id>": {...}} list answers, f=v equality',
  app: keyedMap,
  train: [
    { path: "/api/articles" },
    { path: "/api/articles?status=published" },
    { path: "/api/articles?author=bob" },
    { path: "/api/articles/2" },
    { path: "/api/articles/99" },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/api/articles" },
    { method: "PATCH", path: "/api/articles/3", body: { status: "archived" } },
    { path: "/api/articles/3" },
    { method: "DELETE", path: "/api/articles/6" },
    { path: "/api/articles" },
  ],
  heldout: [
    { path: "/api/articles?status=draft" },
    { path: "/api/articles?author=ann" },
    { path: "/api/articles/8" },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/api/articles?status=published" },
    { method: "PATCH", path: "/api/articles/1", body: { views: 500 } },
    { path: "/api/articles/1" },
    { method: "DELETE", path: "/api/articles/4" },
    { path: "/api/articles" },
    { path: "/api/articles/4" },
  ],
};

// --- Full-text search: ?q= over title and summary (case folded), ?search= over a note's text (exact case) ---

function searchApp(): Handler {
  const summaries = [
    "first ship",
    "what we learned",
    "light study",
    "next quarter",
    "how to start",
    "a second look",
    "small changes",
    "long read",
  ];
  const articles = new Table(seedArticles().map((r, i) => ({ ...r, summary: summaries[i] })));
  const notes = new Table(
    ["Buy milk", "Call Ann", "milk the cows", "Read Alpha draft", "ann's birthday", "Plan the launch"].map(
      (text, i) => ({
        id: i + 1,
        text,
      }),
    ),
  );
  return (req) => {
    const q = req.url.searchParams;
    for (const [base, t] of [
      ["/api/articles", articles],
      ["/api/notes", notes],
    ] as const) {
      if (!req.url.pathname.startsWith(base)) continue;
      const id = itemId(req, base);
      if (id !== null) return itemRoutes(t, req, id, { detail: "Not found." });
      if (req.method === "POST") return json(201, t.create(req.body as Row));
      if (base === "/api/articles") {
        const needle = (q.get("q") ?? "").toLowerCase();
        return json(
          200,
          t.rows.filter((r) => `${r.title} ${r.summary}`.toLowerCase().includes(needle)),
        );
      }
      const s = q.get("search") ?? "";
      const rows = t.rows.filter((r) => String(r.text).includes(s));
      return json(200, { count: rows.length, results: rows });
    }
    return json(404, { detail: "Not found." });
  };
}

const searchStyle: ApiStyle = {
  name: "full-text-search",
  convention:
    "?q= over title and summary (case folded, bare array); ?search= over text (exact case, {count, results})",
  app: searchApp,
  train: [
    { path: "/api/articles" },
    { path: "/api/articles?q=alpha" },
    { path: "/api/articles?q=LEARN" },
    { path: "/api/articles?q=ta" },
    { path: "/api/notes" },
    { path: "/api/notes?search=milk" },
    { path: "/api/notes?search=Ann" },
    { path: "/api/notes/2" },
    { method: "POST", path: "/api/notes", body: { text: "Send milk money" } },
    { path: "/api/notes" },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann", summary: "fresh start" },
    },
    { path: "/api/articles" },
    { path: "/api/articles/2" },
  ],
  heldout: [
    { path: "/api/articles?q=gamma" },
    { path: "/api/articles?q=START" },
    { path: "/api/notes?search=the" },
    { path: "/api/notes?search=ann" },
    { method: "POST", path: "/api/notes", body: { text: "the Ann meeting" } },
    { path: "/api/notes?search=Ann" },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy", summary: "a study plan" },
    },
    { path: "/api/articles?q=study" },
    { path: "/api/articles?q=zzz" },
    { path: "/api/notes?search=zzz" },
  ],
};

// --- An answer shaped by Accept: v1 a bare array of flat rows, v2 {items, total} of rows with nested stats ---

const V2 = "application/vnd.shelf.v2+json";
function versioned(): Handler {
  const t = new Table(seedArticles());
  const base = "/api/articles";
  const v2 = (r: Row) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    author: r.author,
    stats: { views: r.views },
  });
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, {});
    const isV2 = String(req.headers.accept ?? "").includes("v2");
    const ct = { "content-type": isV2 ? V2 : "application/json; charset=utf-8" };
    const view = isV2 ? v2 : (r: Row) => r;
    const id = itemId(req, base);
    if (id !== null) {
      const r = itemRoutes(t, req, id, { message: "Not Found" }, view);
      return { ...r, headers: { ...r.headers, ...ct } };
    }
    if (req.method === "POST") return json(201, view(t.create(req.body as Row)), ct);
    const q = req.url.searchParams;
    const rows = q.get("status") ? t.rows.filter((r) => r.status === q.get("status")) : t.rows;
    return json(200, isV2 ? { items: rows.map(v2), total: rows.length } : rows, ct);
  };
}

const v2h = { accept: V2 };
const versionedStyle: ApiStyle = {
  name: "accept-versioned",
  convention:
    "Accept: application/vnd.shelf.v2+json answers {items,total} with nested stats; application/json a bare array",
  app: versioned,
  train: [
    { path: "/api/articles" },
    { path: "/api/articles", headers: v2h },
    { path: "/api/articles?status=published" },
    { path: "/api/articles?status=draft", headers: v2h },
    { path: "/api/articles/2" },
    { path: "/api/articles/2", headers: v2h },
    { path: "/api/articles/99" },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/api/articles" },
    { path: "/api/articles", headers: v2h },
    { method: "PATCH", path: "/api/articles/3", body: { status: "archived" } },
    { path: "/api/articles/3" },
    { path: "/api/articles/3", headers: v2h },
  ],
  heldout: [
    { path: "/api/articles/8", headers: v2h },
    { path: "/api/articles/5" },
    { path: "/api/articles?status=archived", headers: v2h },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/api/articles", headers: v2h },
    { path: "/api/articles" },
    { method: "PATCH", path: "/api/articles/1", body: { views: 500 } },
    { path: "/api/articles/1", headers: v2h },
    { path: "/api/articles?status=published", headers: v2h },
    { method: "DELETE", path: "/api/articles/4" },
    { path: "/api/articles" },
  ],
};

// --- A cache-buster: every GET carries _=<epoch ms>, new each time, beside real filters ---

function cacheBusted(): Handler {
  const t = new Table(seedArticles());
  const base = "/api/articles";
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, {});
    const id = itemId(req, base);
    if (id !== null) return itemRoutes(t, req, id, { error: "not found" });
    if (req.method === "POST") return json(201, t.create(req.body as Row));
    const q = req.url.searchParams;
    const rows = t.rows.filter((r) => [...q].every(([k, v]) => k === "_" || String(r[k]) === v));
    return json(200, { data: rows });
  };
}

let lastBust = 0;
/** A path with `_=<epoch ms>` appended, a value never sent before (as a client's cache-busting does). */
const bust = (path: string) => () => {
  lastBust = Math.max(lastBust + 1, Date.now());
  return `${path}${path.includes("?") ? "&" : "?"}_=${lastBust}`;
};

const cacheBusterStyle: ApiStyle = {
  name: "cache-buster",
  convention: "_=<epoch ms> on every GET beside f=v filters, {data:[...]}",
  app: cacheBusted,
  train: [
    { path: bust("/api/articles") },
    { path: bust("/api/articles") },
    { path: bust("/api/articles?status=published") },
    { path: bust("/api/articles?author=bob") },
    { path: bust("/api/articles/2") },
    { path: bust("/api/articles/99") },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: bust("/api/articles") },
    { method: "PATCH", path: "/api/articles/3", body: { status: "archived" } },
    { path: bust("/api/articles/3") },
  ],
  heldout: [
    { path: bust("/api/articles?status=draft") },
    { path: bust("/api/articles/8") },
    {
      method: "POST",
      path: "/api/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: bust("/api/articles?author=cy") },
    { method: "PATCH", path: "/api/articles/1", body: { views: 500 } },
    { path: bust("/api/articles/1") },
    { method: "DELETE", path: "/api/articles/4" },
    { path: bust("/api/articles") },
    { path: bust("/api/articles/4") },
  ],
};

export const stylesB: ApiStyle[] = [
  mockRestStyle,
  cursorItemsStyle,
  connectionStyle,
  keyedMapStyle,
  searchStyle,
  versionedStyle,
  cacheBusterStyle,
];
