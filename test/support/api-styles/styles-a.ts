/**
 * API styles, part one: query languages with operators in brackets, in values and in a `where` expression, each a
 * tiny app written from the public conventions of a kind of backend (a headless CMS's `filters[f][$op]`, a data
 * platform's `filter[f][_op]` with `meta`, a spreadsheet database's `where=(f,op,v)` with `pageInfo`, a
 * database-over-HTTP's `f=op.v`), with a training and a held-out scenario each.
 */
import { createHash } from "node:crypto";
import {
  type AppRequest,
  type Handler,
  json,
  pick,
  type Row,
  type Step,
  seedArticles,
  sortRows,
  Table,
  test,
} from "./kit.js";

/** One convention family: its app (fresh state per call), a training and a held-out scenario. */
export interface ApiStyle {
  name: string;
  /** What the style is, in a line. */
  convention: string;
  app(): Handler;
  train: Step[];
  heldout: Step[];
  /** Response headers every held-out answer must carry alike on the twin (compared besides status and body). */
  headers?: string[];
}

const num = (v: string | null, d: number) => (v === null || v === "" ? d : Number(v));
const idOf = (req: AppRequest, base: string) => {
  const rest = req.url.pathname.slice(base.length);
  return rest.startsWith("/") ? decodeURIComponent(rest.slice(1)) : null;
};
const keysOf = (spec: string, sep: RegExp): [string, "asc" | "desc"][] =>
  spec
    .split(",")
    .filter(Boolean)
    .map((s) => {
      if (s.startsWith("-")) return [s.slice(1), "desc"];
      const [f, d] = s.split(sep);
      return [f!, (d ?? "asc").toLowerCase() === "desc" ? "desc" : "asc"];
    });

// --- A headless CMS: filters[field][$op]=v, pagination[page]/[pageSize], sort=field:dir, documentId paths ---

const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
/** A document id in the CMS's style: 24 lowercase letters and digits, derived from the row id. */
export const documentId = (id: number) =>
  [...createHash("sha256").update(`article-${id}`).digest()]
    .slice(0, 24)
    .map((b) => ALNUM[b % 36])
    .join("");

const CMS_OPS: Record<string, string> = {
  $eq: "eq",
  $ne: "ne",
  $gt: "gt",
  $gte: "gte",
  $lt: "lt",
  $lte: "lte",
  $in: "in",
  $contains: "contains",
  $containsi: "icontains",
  $startsWith: "startswith",
};

function cms(): Handler {
  const t = new Table(seedArticles().map(({ id, ...r }) => ({ id, documentId: documentId(id), ...r })));
  const base = "/api/articles";
  const notFound = json(404, {
    data: null,
    error: { status: 404, name: "NotFoundError", message: "Not Found", details: {} },
  });
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, { error: "no route" });
    const doc = idOf(req, base);
    const row = doc === null ? undefined : t.rows.find((r) => r.documentId === doc);
    if (doc === null && req.method === "GET") {
      const q = req.url.searchParams;
      const conds = new Map<string, [string, string, string[]]>();
      for (const [k, v] of q) {
        const m = /^filters\[(\w+)\]\[(\$\w+)\](?:\[\d+\])?$/.exec(k);
        if (!m) continue;
        const key = `${m[1]}|${m[2]}`;
        const c = conds.get(key) ?? [m[1]!, CMS_OPS[m[2]!]!, []];
        c[2].push(v);
        conds.set(key, c);
      }
      let rows = t.rows.filter((r) => [...conds.values()].every(([f, op, vs]) => test(r[f], op, vs)));
      if (q.get("sort")) rows = sortRows(rows, keysOf(q.get("sort")!, /:/));
      const page = num(q.get("pagination[page]"), 1);
      const pageSize = num(q.get("pagination[pageSize]"), 25);
      const total = rows.length;
      return json(200, {
        data: rows.slice((page - 1) * pageSize, page * pageSize),
        meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
      });
    }
    if (doc === null && req.method === "POST") {
      const fields = (req.body as { data: Record<string, unknown> }).data;
      return json(201, { data: t.create(fields, (id) => ({ documentId: documentId(id) })), meta: {} });
    }
    if (!row) return notFound;
    if (req.method === "GET") return json(200, { data: row, meta: {} });
    if (req.method === "PUT") {
      t.patch(row.id, (req.body as { data: Record<string, unknown> }).data);
      return json(200, { data: row, meta: {} });
    }
    if (req.method === "DELETE") {
      t.remove(row.id);
      return { status: 204 };
    }
    return json(405, { error: "method" });
  };
}

const doc = (id: number) => `/api/articles/${documentId(id)}`;
const createdDoc = (at: number) => (seen: unknown[]) =>
  `/api/articles/${(seen[at] as { data: { documentId: string } }).data.documentId}`;

const cmsStyle: ApiStyle = {
  name: "cms-filters-dollar",
  convention:
    "filters[f][$op]=v, pagination[page]/[pageSize], sort=f:dir, {data, meta:{pagination}}, documentId paths",
  app: cms,
  train: [
    { path: "/api/articles" },
    { path: "/api/articles?filters[status][$eq]=published" },
    { path: "/api/articles?filters[views][$gt]=100&sort=views:desc" },
    { path: "/api/articles?sort=title:asc&pagination[page]=2&pagination[pageSize]=3" },
    { path: "/api/articles?filters[title][$containsi]=TA" },
    { path: "/api/articles?filters[author][$ne]=ann&sort=title:desc" },
    { path: doc(2) },
    { path: doc(5) },
    { path: "/api/articles/zzzzzzzzzzzzzzzzzzzzzzzz" },
    {
      method: "POST",
      path: "/api/articles",
      body: { data: { title: "Iota news", status: "draft", views: 0, author: "ann" } },
    },
    { path: "/api/articles" },
    { method: "PUT", path: doc(3), body: { data: { status: "archived" } } },
    { path: doc(3) },
    { method: "DELETE", path: doc(6) },
    { path: doc(6) },
    { path: "/api/articles?pagination[page]=1&pagination[pageSize]=4&sort=views:asc" },
  ],
  heldout: [
    { path: "/api/articles?filters[status][$eq]=draft" },
    { path: "/api/articles?filters[views][$lte]=90&sort=title:desc" },
    { path: "/api/articles?sort=views:desc&pagination[page]=1&pagination[pageSize]=2" },
    { path: "/api/articles?filters[author][$eq]=bob&sort=title:asc" },
    { path: doc(8) },
    {
      method: "POST",
      path: "/api/articles",
      body: { data: { title: "Kappa notes", status: "published", views: 5, author: "cy" } },
    },
    { path: createdDoc(5) },
    { path: "/api/articles?filters[status][$eq]=published&pagination[page]=2&pagination[pageSize]=2" },
    { method: "PUT", path: doc(1), body: { data: { views: 500 } } },
    { path: "/api/articles?filters[views][$gte]=150&sort=views:desc" },
    { method: "DELETE", path: doc(4) },
    { path: "/api/articles?sort=title:asc&pagination[page]=3&pagination[pageSize]=2" },
    { path: doc(4) },
    { path: "/api/articles?filters[title][$containsi]=ep" },
  ],
};

// --- A data platform: filter[field][_op]=v, sort=-f, limit/offset, meta=total_count|filter_count, fields=a,b ---

const DP_OPS: Record<string, string> = {
  _eq: "eq",
  _neq: "ne",
  _gt: "gt",
  _gte: "gte",
  _lt: "lt",
  _lte: "lte",
  _in: "in",
  _contains: "contains",
  _icontains: "icontains",
  _starts_with: "startswith",
};

function dataPlatform(): Handler {
  const t = new Table(seedArticles());
  const base = "/items/articles";
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, { error: "no route" });
    const q = req.url.searchParams;
    const fields = q.get("fields")?.split(",");
    const view = (r: Row) => (fields ? pick(r, fields) : r);
    const id = idOf(req, base);
    if (id === null && req.method === "GET") {
      const conds: [string, string, string[]][] = [];
      for (const [k, v] of q) {
        const m = /^filter\[(\w+)\]\[(_\w+)\]$/.exec(k);
        if (m) conds.push([m[1]!, DP_OPS[m[2]!]!, m[2] === "_in" ? v.split(",") : [v]]);
      }
      let rows = t.rows.filter((r) => conds.every(([f, op, vs]) => test(r[f], op, vs)));
      if (q.get("sort")) rows = sortRows(rows, keysOf(q.get("sort")!, /:/));
      const limit = num(q.get("limit"), 100);
      const offset = q.has("page") ? (num(q.get("page"), 1) - 1) * limit : num(q.get("offset"), 0);
      const body: Record<string, unknown> = { data: rows.slice(offset, offset + limit).map(view) };
      const meta = q.get("meta");
      if (meta) {
        const m: Record<string, number> = {};
        if (meta === "total_count" || meta === "*") m.total_count = t.rows.length;
        if (meta === "filter_count" || meta === "*") m.filter_count = rows.length;
        body.meta = m;
      }
      return json(200, body);
    }
    if (id === null && req.method === "POST") return json(200, { data: t.create(req.body as Row) });
    const row = t.get(Number(id));
    if (!row)
      return json(403, {
        errors: [{ message: "You don't have permission to access this.", extensions: { code: "FORBIDDEN" } }],
      });
    if (req.method === "GET") return json(200, { data: view(row) });
    if (req.method === "PATCH") return json(200, { data: t.patch(row.id, req.body as Row) });
    if (req.method === "DELETE") {
      t.remove(row.id);
      return { status: 204 };
    }
    return json(405, {});
  };
}

const dataPlatformStyle: ApiStyle = {
  name: "platform-filter-underscore",
  convention: "filter[f][_op]=v, sort=-f, limit/offset, meta=total_count, {data:[...]}, fields=a,b",
  app: dataPlatform,
  train: [
    { path: "/items/articles" },
    { path: "/items/articles?filter[status][_eq]=published" },
    { path: "/items/articles?filter[views][_gt]=100&sort=-views" },
    { path: "/items/articles?sort=title&limit=3&offset=2" },
    { path: "/items/articles?filter[title][_icontains]=ta&meta=filter_count" },
    { path: "/items/articles?limit=2&meta=total_count" },
    { path: "/items/articles?fields=id,title&sort=-id&limit=3" },
    { path: "/items/articles?filter[id][_in]=2,4,7" },
    { path: "/items/articles/2" },
    { path: "/items/articles/7?fields=title,views" },
    { path: "/items/articles/99" },
    {
      method: "POST",
      path: "/items/articles",
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/items/articles" },
    { method: "PATCH", path: "/items/articles/3", body: { status: "archived" } },
    { path: "/items/articles/3" },
    { method: "DELETE", path: "/items/articles/6" },
    { path: "/items/articles/6" },
    { path: "/items/articles?sort=-views&limit=4&meta=total_count" },
  ],
  heldout: [
    { path: "/items/articles?filter[status][_eq]=draft" },
    { path: "/items/articles?filter[views][_lte]=90&sort=title" },
    { path: "/items/articles?sort=-views&limit=2&offset=1" },
    { path: "/items/articles?filter[author][_neq]=ann&meta=total_count" },
    { path: "/items/articles?fields=title,author&sort=title&limit=2" },
    { path: "/items/articles/8" },
    {
      method: "POST",
      path: "/items/articles",
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/items/articles?filter[status][_eq]=published&meta=filter_count" },
    { method: "PATCH", path: "/items/articles/1", body: { views: 500 } },
    { path: "/items/articles?filter[views][_gte]=150&sort=-views" },
    { method: "DELETE", path: "/items/articles/4" },
    { path: "/items/articles?sort=id&limit=3&offset=3&meta=total_count" },
    { path: "/items/articles/4" },
    { path: "/items/articles?filter[id][_in]=1,5,8&fields=id,views" },
  ],
};

// --- A spreadsheet database: where=(f,op,v)~and(...), sort=-f, limit/offset, {list, pageInfo} ---

const NOCO_FIELDS: Record<string, string> = {
  Id: "id",
  Title: "title",
  Status: "status",
  Views: "views",
  Author: "author",
};
const NOCO_OPS: Record<string, string> = { eq: "eq", neq: "ne", gt: "gt", ge: "gte", lt: "lt", le: "lte" };
const nocoRow = (r: Row) => Object.fromEntries(Object.entries(NOCO_FIELDS).map(([k, f]) => [k, r[f]]));
const fromNoco = (b: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(b).map(([k, v]) => [NOCO_FIELDS[k] ?? k, v]));

function nocoWhere(where: string): (r: Row) => boolean {
  const parts = where.split("~and");
  const conds = parts.map((p) => {
    const [f, op, v] = p.replace(/^\(|\)$/g, "").split(",") as [string, string, string];
    const field = NOCO_FIELDS[f] ?? f;
    if (op === "like") {
      const needle = v.replaceAll("%", "").toLowerCase();
      return (r: Row) => String(r[field]).toLowerCase().includes(needle);
    }
    return (r: Row) => test(r[field], NOCO_OPS[op]!, v);
  });
  return (r) => conds.every((c) => c(r));
}

function spreadsheet(): Handler {
  const t = new Table(seedArticles());
  const base = "/api/v1/db/data/noco/blog/articles";
  return (req) => {
    if (!req.url.pathname.startsWith(base)) return json(404, { msg: "no route" });
    const q = req.url.searchParams;
    const id = idOf(req, base);
    if (id === null && req.method === "GET") {
      let rows = q.get("where") ? t.rows.filter(nocoWhere(q.get("where")!)) : t.rows;
      if (q.get("sort"))
        rows = sortRows(
          rows,
          keysOf(q.get("sort")!, /:/).map(([f, d]) => [NOCO_FIELDS[f] ?? f, d]),
        );
      const limit = num(q.get("limit"), 25);
      const offset = num(q.get("offset"), 0);
      return json(200, {
        list: rows.slice(offset, offset + limit).map(nocoRow),
        pageInfo: {
          totalRows: rows.length,
          page: Math.floor(offset / limit) + 1,
          pageSize: limit,
          isFirstPage: offset === 0,
          isLastPage: offset + limit >= rows.length,
        },
      });
    }
    if (id === null && req.method === "POST") return json(200, nocoRow(t.create(fromNoco(req.body as Row))));
    const row = t.get(Number(id));
    if (!row) return json(404, { msg: "Record not found" });
    if (req.method === "GET") return json(200, nocoRow(row));
    if (req.method === "PATCH") return json(200, nocoRow(t.patch(row.id, fromNoco(req.body as Row))!));
    if (req.method === "DELETE") {
      t.remove(row.id);
      return json(200, 1);
    }
    return json(405, {});
  };
}

const NB = "/api/v1/db/data/noco/blog/articles";
const spreadsheetStyle: ApiStyle = {
  name: "sheet-where-pageinfo",
  convention:
    "where=(f,op,v)~and(...), sort=-f, limit/offset, {list, pageInfo:{totalRows,page,pageSize,isFirstPage,isLastPage}}",
  app: spreadsheet,
  train: [
    { path: NB },
    { path: `${NB}?where=(Status,eq,published)` },
    { path: `${NB}?where=(Views,gt,100)&sort=-Views` },
    { path: `${NB}?sort=Title&limit=3&offset=3` },
    { path: `${NB}?where=(Title,like,%25ta%25)` },
    { path: `${NB}?where=(Status,eq,published)~and(Views,lt,100)&limit=2` },
    { path: `${NB}/2` },
    { path: `${NB}/99` },
    { method: "POST", path: NB, body: { Title: "Iota news", Status: "draft", Views: 0, Author: "ann" } },
    { path: NB },
    { method: "PATCH", path: `${NB}/3`, body: { Status: "archived" } },
    { path: `${NB}/3` },
    { method: "DELETE", path: `${NB}/6` },
    { path: NB },
    { path: `${NB}?sort=-Id&limit=4&offset=4` },
  ],
  heldout: [
    { path: `${NB}?where=(Status,eq,draft)` },
    { path: `${NB}?where=(Views,le,90)&sort=Title` },
    { path: `${NB}?sort=-Views&limit=2&offset=2` },
    { path: `${NB}?where=(Author,neq,ann)~and(Views,ge,80)` },
    { path: `${NB}/8` },
    { method: "POST", path: NB, body: { Title: "Kappa notes", Status: "published", Views: 5, Author: "cy" } },
    { path: `${NB}?where=(Status,eq,published)&limit=3&offset=3` },
    { method: "PATCH", path: `${NB}/1`, body: { Views: 500 } },
    { path: `${NB}?where=(Views,ge,150)&sort=-Views` },
    { method: "DELETE", path: `${NB}/4` },
    { path: `${NB}?sort=Id&limit=3&offset=6` },
    { path: `${NB}/4` },
    { path: `${NB}?where=(Title,like,%25EP%25)` },
  ],
};

// --- A database over HTTP: f=op.v filters, order=f.dir, limit/offset, select=a,b, bare arrays ---

function restDb(): Handler {
  const t = new Table(seedArticles());
  const RESERVED = new Set(["order", "limit", "offset", "select"]);
  const filterOf = (field: string, spec: string): ((r: Row) => boolean) => {
    const dot = spec.indexOf(".");
    const op = spec.slice(0, dot);
    const v = spec.slice(dot + 1);
    if (op === "in") return (r) => test(r[field], "in", v.replace(/^\(|\)$/g, "").split(","));
    if (op === "like" || op === "ilike") {
      const ci = op === "ilike";
      const needle = v.replaceAll("*", "");
      return (r) =>
        ci
          ? String(r[field]).toLowerCase().includes(needle.toLowerCase())
          : String(r[field]).includes(needle);
    }
    const ops: Record<string, string> = { eq: "eq", neq: "ne", gt: "gt", gte: "gte", lt: "lt", lte: "lte" };
    return (r) => test(r[field], ops[op]!, v);
  };
  const select = (req: AppRequest, rows: Row[]) => {
    const q = req.url.searchParams;
    let out = rows.filter((r) => [...q].every(([k, v]) => RESERVED.has(k) || filterOf(k, v)(r)));
    if (q.get("order")) out = sortRows(out, keysOf(q.get("order")!, /\./));
    const offset = num(q.get("offset"), 0);
    out = out.slice(offset, q.has("limit") ? offset + num(q.get("limit"), 0) : undefined);
    return out;
  };
  return (req) => {
    if (req.url.pathname !== "/articles") return json(404, { message: "no route" });
    const q = req.url.searchParams;
    if (req.method === "GET") {
      const fields = q.get("select")?.split(",");
      return json(
        200,
        select(req, t.rows).map((r) => (fields ? pick(r, fields) : r)),
      );
    }
    if (req.method === "POST") return json(201, [t.create(req.body as Row)]);
    if (req.method === "PATCH")
      return json(
        200,
        select(req, t.rows).map((r) => t.patch(r.id, req.body as Row)),
      );
    if (req.method === "DELETE") {
      for (const r of select(req, t.rows)) t.remove(r.id);
      return { status: 204 };
    }
    return json(405, {});
  };
}

const RETURN = { prefer: "return=representation" };
const restDbStyle: ApiStyle = {
  name: "rest-db-op-dot-value",
  convention: "f=op.v (eq, neq, gt, lte, ilike, in), order=f.dir, limit/offset, select=a,b, bare arrays",
  app: restDb,
  train: [
    { path: "/articles" },
    { path: "/articles?status=eq.published" },
    { path: "/articles?views=gt.100&order=views.desc" },
    { path: "/articles?order=title.asc&limit=3&offset=2" },
    { path: "/articles?title=ilike.*TA*" },
    { path: "/articles?author=neq.ann&order=id.desc" },
    { path: "/articles?select=id,title&limit=3" },
    { path: "/articles?id=eq.2" },
    { path: "/articles?id=in.(3,5,7)" },
    {
      method: "POST",
      path: "/articles",
      headers: RETURN,
      body: { title: "Iota news", status: "draft", views: 0, author: "ann" },
    },
    { path: "/articles" },
    { method: "PATCH", path: "/articles?id=eq.3", headers: RETURN, body: { status: "archived" } },
    { path: "/articles?id=eq.3" },
    { method: "DELETE", path: "/articles?id=eq.6" },
    { path: "/articles" },
  ],
  heldout: [
    { path: "/articles?status=eq.draft" },
    { path: "/articles?views=lte.90&order=title.desc" },
    { path: "/articles?order=views.desc&limit=2&offset=1" },
    { path: "/articles?author=eq.bob&views=gte.80" },
    { path: "/articles?id=eq.8" },
    {
      method: "POST",
      path: "/articles",
      headers: RETURN,
      body: { title: "Kappa notes", status: "published", views: 5, author: "cy" },
    },
    { path: "/articles?status=eq.published&order=id.desc&limit=3" },
    { method: "PATCH", path: "/articles?id=eq.1", headers: RETURN, body: { views: 500 } },
    { path: "/articles?views=gte.150&order=views.desc" },
    { method: "DELETE", path: "/articles?id=eq.4" },
    { path: "/articles?select=title,author&order=id.asc&limit=3&offset=3" },
    { path: "/articles?id=in.(1,4,8)" },
    { path: "/articles?title=ilike.*ep*" },
  ],
};

export const stylesA: ApiStyle[] = [cmsStyle, dataPlatformStyle, spreadsheetStyle, restDbStyle];
