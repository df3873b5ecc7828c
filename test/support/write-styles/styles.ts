/**
 * One tiny app per write convention of issue 10 (items 1-7), each with a training and a
 * held-out exchange list (other ids, other values). The held-out runs on the app the
 * training left, as the real-app harness does (scripts/fidelity-real.mjs).
 */
import { type AppAnswer, type AppHandler, type AppRequest, json, notFound, route } from "./app-server.js";
import type { Exchange } from "./recorder.js";

/** A convention: its app (fresh state per call), and what training and held-out send. */
export interface WriteStyle {
  name: string;
  /** The item of issue 10 it is for. */
  item: number;
  app: () => AppHandler;
  train: Exchange[];
  heldout: Exchange[];
}

type Entity = Record<string, unknown>;
const now = () => new Date().toISOString();
const obj = (v: unknown): Entity =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Entity) : {};

/** An integer-id table: entities in insertion order, the next id after the highest ever given. */
class Table {
  rows: Entity[];
  next: number;
  constructor(rows: Entity[]) {
    this.rows = rows.map((r) => ({ ...r }));
    this.next = Math.max(0, ...rows.map((r) => Number(r.id))) + 1;
  }
  get(id: string | number): Entity | undefined {
    return this.rows.find((r) => String(r.id) === String(id));
  }
  add(fields: Entity): Entity {
    const row = { id: this.next++, ...fields };
    this.rows.push(row);
    return row;
  }
  remove(id: string | number): boolean {
    const i = this.rows.findIndex((r) => String(r.id) === String(id));
    if (i < 0) return false;
    this.rows.splice(i, 1);
    return true;
  }
}

/** GET list and item routes of `t` at `list` and `item` (`/api/x` and `/api/x/:id`). */
function reads(req: AppRequest, t: Table, list: string, item: string): AppAnswer | null {
  if (route(req, `GET ${list}`)) return json(200, t.rows);
  const p = route(req, `GET ${item}`);
  if (p) {
    const row = t.get(p.id!);
    return row ? json(200, row) : notFound();
  }
  return null;
}

// ---------------------------------------------------------------- item 1

/** Writes on `/flow`, `/flow/{id}` over reads of `GET /flows` (Node-RED's admin API). */
const itemPath: WriteStyle = {
  name: "item path differs from list path",
  item: 1,
  app: () => {
    const t = new Table([
      { id: 1, label: "Ingest", disabled: false },
      { id: 2, label: "Publish", disabled: false },
      { id: 3, label: "Archive", disabled: true },
    ]);
    return (req) => {
      if (route(req, "GET /flows")) return json(200, t.rows);
      let p = route(req, "GET /flow/:id");
      if (p) return t.get(p.id!) ? json(200, t.get(p.id!)) : notFound();
      if (route(req, "POST /flow")) {
        const b = obj(req.body);
        return json(200, t.add({ label: b.label, disabled: b.disabled ?? false }));
      }
      p = route(req, "PUT /flow/:id");
      if (p) {
        const row = t.get(p.id!);
        if (!row) return notFound();
        const b = obj(req.body);
        row.label = b.label;
        row.disabled = b.disabled;
        return json(200, row);
      }
      p = route(req, "DELETE /flow/:id");
      if (p) return t.remove(p.id!) ? { status: 204 } : notFound();
      return notFound();
    };
  },
  train: [
    { path: "/flows" },
    { method: "POST", path: "/flow", body: { label: "Enrich", disabled: false } },
    { path: "/flows" },
    { method: "PUT", path: "/flow/1", body: { label: "Ingest v2", disabled: true } },
    { path: "/flow/1" },
    { method: "DELETE", path: "/flow/3" },
    { path: "/flows" },
  ],
  heldout: [
    { method: "POST", path: "/flow", body: { label: "Notify", disabled: true } },
    { method: "PUT", path: "/flow/2", body: { label: "Publish all", disabled: false } },
    { path: "/flow/2" },
    { method: "DELETE", path: "/flow/1" },
    { path: "/flows" },
  ],
};

/** The same API recorded without an item read: only the list shows what the writes on `/flow/{id}` did. */
const itemPathNoItemRead: WriteStyle = {
  name: "item path differs from list path, no item read",
  item: 1,
  app: itemPath.app,
  train: itemPath.train.filter((x) => x.method !== undefined || !x.path.startsWith("/flow/")),
  heldout: itemPath.heldout.filter((x) => x.method !== undefined || !x.path.startsWith("/flow/")),
};

// ---------------------------------------------------------------- item 2

/** A plain collection whose create answers `create(row)`; reads at /api/<name>. */
function createStyle(
  name: string,
  seed: Entity[],
  answer: (row: Entity) => AppAnswer,
  bodies: [Entity, Entity, Entity],
  style: string,
): WriteStyle {
  const base = `/api/${name}`;
  return {
    name: style,
    item: 2,
    app: () => {
      const t = new Table(seed);
      return (req) => {
        const r = reads(req, t, base, `${base}/:id`);
        if (r) return r;
        if (route(req, `POST ${base}`)) {
          const b = obj(req.body);
          return answer(t.add({ title: b.title, notes: b.notes ?? "", done: false }));
        }
        return notFound();
      };
    },
    train: [
      { path: base },
      { method: "POST", path: base, body: bodies[0] },
      { path: `${base}/${seed.length + 1}` },
      { method: "POST", path: base, body: bodies[1] },
      { path: base },
    ],
    heldout: [
      { method: "POST", path: base, body: bodies[2] },
      { path: `${base}/${seed.length + 3}` },
      { path: base },
    ],
  };
}

const noteSeed = [
  { id: 1, title: "Buy milk", notes: "", done: false },
  { id: 2, title: "Call Ann", notes: "about Friday", done: true },
];
const noteBodies: [Entity, Entity, Entity] = [
  { title: "Water plants", notes: "balcony" },
  { title: "Pay rent", notes: "before the 5th" },
  { title: "Book train", notes: "window seat" },
];

const createIdOnly = createStyle(
  "notes",
  noteSeed,
  (row) => json(201, { id: row.id }),
  noteBodies,
  "create answers {id} only",
);
const createLocation = createStyle(
  "tasks",
  noteSeed,
  (row) => ({ status: 201, headers: { location: `/api/tasks/${row.id}` } }),
  noteBodies,
  "create answers 201, no body, Location",
);

/** Every answer wrapped `{data, meta}`, the create too. */
const createWrapped: WriteStyle = {
  name: "create answers {data, meta}",
  item: 2,
  app: () => {
    const t = new Table(noteSeed);
    const meta = { api: "v1" };
    return (req) => {
      if (route(req, "GET /api/posts")) return json(200, { data: t.rows, meta });
      const p = route(req, "GET /api/posts/:id");
      if (p) return t.get(p.id!) ? json(200, { data: t.get(p.id!), meta }) : notFound();
      if (route(req, "POST /api/posts")) {
        const b = obj(req.body);
        return json(201, { data: t.add({ title: b.title, notes: b.notes ?? "", done: false }), meta });
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/posts" },
    { method: "POST", path: "/api/posts", body: noteBodies[0] },
    { path: "/api/posts/3" },
    { method: "POST", path: "/api/posts", body: noteBodies[1] },
    { path: "/api/posts" },
  ],
  heldout: [
    { method: "POST", path: "/api/posts", body: noteBodies[2] },
    { path: "/api/posts/5" },
    { path: "/api/posts" },
  ],
};

/** The client names the entity: `POST /api/tags {slug, label}`, read at /api/tags/{slug}. */
const clientId: WriteStyle = {
  name: "create with a client-chosen id",
  item: 2,
  app: () => {
    const rows: Entity[] = [
      { slug: "home", label: "Home", color: "blue" },
      { slug: "work", label: "Work", color: "red" },
    ];
    return (req) => {
      if (route(req, "GET /api/tags")) return json(200, rows);
      let p = route(req, "GET /api/tags/:slug");
      if (p) {
        const row = rows.find((r) => r.slug === p!.slug);
        return row ? json(200, row) : notFound();
      }
      if (route(req, "POST /api/tags")) {
        const b = obj(req.body);
        const row = { slug: b.slug, label: b.label, color: b.color ?? "grey" };
        rows.push(row);
        return json(201, row);
      }
      p = route(req, "DELETE /api/tags/:slug");
      if (p) {
        const i = rows.findIndex((r) => r.slug === p!.slug);
        if (i < 0) return notFound();
        rows.splice(i, 1);
        return { status: 204 };
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/tags" },
    { method: "POST", path: "/api/tags", body: { slug: "garden", label: "Garden", color: "green" } },
    { path: "/api/tags/garden" },
    { method: "POST", path: "/api/tags", body: { slug: "travel", label: "Travel" } },
    { path: "/api/tags" },
    { method: "DELETE", path: "/api/tags/home" },
    { path: "/api/tags" },
  ],
  heldout: [
    { method: "POST", path: "/api/tags", body: { slug: "books", label: "Books", color: "brown" } },
    { path: "/api/tags/books" },
    { method: "DELETE", path: "/api/tags/work" },
    { path: "/api/tags" },
  ],
};

// ---------------------------------------------------------------- item 3

/** `PUT /config` replaces the whole document `GET /config` answers. */
const wholeDocument: WriteStyle = {
  name: "whole-document PUT",
  item: 3,
  app: () => {
    let doc: unknown = { theme: "light", folders: [{ name: "inbox", open: true }] };
    return (req) => {
      if (route(req, "GET /config")) return json(200, doc);
      if (route(req, "PUT /config")) {
        doc = req.body;
        return json(200, doc);
      }
      return notFound();
    };
  },
  train: [
    { path: "/config" },
    {
      method: "PUT",
      path: "/config",
      body: {
        theme: "dark",
        folders: [
          { name: "inbox", open: false },
          { name: "work", open: true },
        ],
      },
    },
    { path: "/config" },
  ],
  heldout: [
    { method: "PUT", path: "/config", body: { theme: "solarized", folders: [{ name: "home", open: true }] } },
    { path: "/config" },
  ],
};

/** `PUT /api/folders` with the whole array replaces the collection `GET /api/folders` lists. */
const arrayReplace: WriteStyle = {
  name: "array PUT replaces the collection",
  item: 3,
  app: () => {
    let rows: Entity[] = [
      { id: 1, name: "inbox", open: true },
      { id: 2, name: "archive", open: false },
    ];
    return (req) => {
      if (route(req, "GET /api/folders")) return json(200, rows);
      if (route(req, "PUT /api/folders")) {
        rows = Array.isArray(req.body) ? (req.body as Entity[]) : rows;
        return json(200, rows);
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/folders" },
    {
      method: "PUT",
      path: "/api/folders",
      body: [
        { id: 1, name: "inbox", open: false },
        { id: 3, name: "work", open: true },
      ],
    },
    { path: "/api/folders" },
  ],
  heldout: [
    {
      method: "PUT",
      path: "/api/folders",
      body: [
        { id: 3, name: "work", open: false },
        { id: 4, name: "home", open: true },
        { id: 5, name: "misc", open: true },
      ],
    },
    { path: "/api/folders" },
  ],
};

/** A document with a `rev` the app checks: a stale `rev` answers 409 and changes nothing. */
const revBody: WriteStyle = {
  name: "rev in the body, 409 when stale",
  item: 3,
  app: () => {
    const t = new Table([
      { id: 1, title: "Plan", rev: 1 },
      { id: 2, title: "Budget", rev: 4 },
      { id: 3, title: "Notes", rev: 2 },
    ]);
    return (req) => {
      const r = reads(req, t, "/api/docs", "/api/docs/:id");
      if (r) return r;
      const p = route(req, "PUT /api/docs/:id");
      if (p) {
        const row = t.get(p.id!);
        if (!row) return notFound();
        const b = obj(req.body);
        if (b.rev !== row.rev) return json(409, { error: "conflict", message: "the document changed" });
        row.title = b.title;
        row.rev = (row.rev as number) + 1;
        return json(200, row);
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/docs" },
    { method: "PUT", path: "/api/docs/1", body: { title: "Plan B", rev: 1 } },
    { path: "/api/docs/1" },
    { method: "PUT", path: "/api/docs/1", body: { title: "Plan C", rev: 1 } },
    { path: "/api/docs/1" },
    { method: "PUT", path: "/api/docs/2", body: { title: "Budget 2027", rev: 4 } },
    { path: "/api/docs" },
  ],
  heldout: [
    { method: "PUT", path: "/api/docs/3", body: { title: "Meeting notes", rev: 2 } },
    { path: "/api/docs/3" },
    { method: "PUT", path: "/api/docs/3", body: { title: "Old notes", rev: 2 } },
    { path: "/api/docs/3" },
  ],
};

/** `ETag` on reads, `If-Match` on PUT: a stale tag answers 412. */
const etag: WriteStyle = {
  name: "If-Match/ETag, 412 when stale",
  item: 3,
  app: () => {
    const t = new Table([
      { id: 1, title: "Home", version: 1 },
      { id: 2, title: "About", version: 3 },
      { id: 3, title: "Contact", version: 1 },
    ]);
    const tag = (row: Entity) => ({ etag: `"v${row.version}"` });
    return (req) => {
      if (route(req, "GET /api/pages")) return json(200, t.rows);
      let p = route(req, "GET /api/pages/:id");
      if (p) return t.get(p.id!) ? json(200, t.get(p.id!), tag(t.get(p.id!)!)) : notFound();
      p = route(req, "PUT /api/pages/:id");
      if (p) {
        const row = t.get(p.id!);
        if (!row) return notFound();
        if (req.headers["if-match"] !== tag(row).etag) return json(412, { error: "precondition failed" });
        row.title = obj(req.body).title;
        row.version = (row.version as number) + 1;
        return json(200, row, tag(row));
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/pages" },
    { path: "/api/pages/1" },
    { method: "PUT", path: "/api/pages/1", body: { title: "Welcome" }, headers: { "if-match": '"v1"' } },
    { path: "/api/pages/1" },
    { method: "PUT", path: "/api/pages/1", body: { title: "Hello" }, headers: { "if-match": '"v1"' } },
    { path: "/api/pages/2" },
    { method: "PUT", path: "/api/pages/2", body: { title: "About us" }, headers: { "if-match": '"v3"' } },
    { path: "/api/pages" },
  ],
  heldout: [
    { path: "/api/pages/3" },
    { method: "PUT", path: "/api/pages/3", body: { title: "Reach us" }, headers: { "if-match": '"v1"' } },
    { path: "/api/pages/3" },
    { method: "PUT", path: "/api/pages/3", body: { title: "Write to us" }, headers: { "if-match": '"v1"' } },
  ],
};

/**
 * `PATCH /api/items {keys, data}` applies `data` to every entity `keys` names (Directus) and answers them; the
 * faulty variant (`applyTo` naming fewer) answers every key as changed but keeps only some.
 */
function batchApp(applyTo: (keys: unknown[]) => unknown[]): () => AppHandler {
  return () => {
    const t = new Table([
      { id: 1, title: "A", status: "draft" },
      { id: 2, title: "B", status: "draft" },
      { id: 3, title: "C", status: "draft" },
      { id: 4, title: "D", status: "draft" },
      { id: 5, title: "E", status: "draft" },
    ]);
    return (req) => {
      const r = reads(req, t, "/api/items", "/api/items/:id");
      if (r) return r;
      if (route(req, "PATCH /api/items")) {
        const b = obj(req.body);
        const keys = Array.isArray(b.keys) ? b.keys : [];
        for (const k of applyTo(keys)) Object.assign(t.get(k as number) ?? {}, obj(b.data));
        return json(200, { data: keys.map((k) => ({ ...t.get(k as number), ...obj(b.data) })) });
      }
      return notFound();
    };
  };
}

const batch: WriteStyle = {
  name: "batch PATCH {keys, data}",
  item: 3,
  app: batchApp((keys) => keys),
  train: [
    { path: "/api/items" },
    { path: "/api/items/1" },
    { method: "PATCH", path: "/api/items", body: { keys: [1, 2], data: { status: "published" } } },
    { path: "/api/items" },
    { method: "PATCH", path: "/api/items", body: { keys: [2], data: { title: "B2" } } },
    { path: "/api/items" },
  ],
  heldout: [
    { method: "PATCH", path: "/api/items", body: { keys: [3, 4], data: { status: "archived" } } },
    { path: "/api/items" },
    { path: "/api/items/4" },
  ],
};

/** The same batch, but the app answers every key changed while keeping the first only: the read-back disagrees. */
const batchDisagrees: WriteStyle = {
  name: "batch PATCH whose read-back disagrees",
  item: 3,
  app: batchApp((keys) => keys.slice(0, 1)),
  train: batch.train,
  heldout: batch.heldout,
};

// ---------------------------------------------------------------- item 4

/** `POST /api/articles/{id}/publish`: the read-back shows the status and a clock field changed. */
const action: WriteStyle = {
  name: "action POST /{id}/publish",
  item: 4,
  app: () => {
    const t = new Table([
      { id: 1, title: "Spring", status: "draft", published_at: null },
      { id: 2, title: "Summer", status: "draft", published_at: null },
      { id: 3, title: "Autumn", status: "draft", published_at: null },
      { id: 4, title: "Winter", status: "draft", published_at: null },
    ]);
    return (req) => {
      const r = reads(req, t, "/api/articles", "/api/articles/:id");
      if (r) return r;
      const p = route(req, "POST /api/articles/:id/publish");
      if (p) {
        const row = t.get(p.id!);
        if (!row) return notFound();
        row.status = "published";
        row.published_at = now();
        return json(200, row);
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/articles" },
    { method: "POST", path: "/api/articles/1/publish" },
    { path: "/api/articles/1" },
    { method: "POST", path: "/api/articles/2/publish" },
    { path: "/api/articles" },
  ],
  heldout: [
    { method: "POST", path: "/api/articles/4/publish" },
    { path: "/api/articles/4" },
    { path: "/api/articles" },
  ],
};

/** `GET`/`PATCH /api/settings` and `GET`/`PATCH /api/me`: one resource each, at a fixed path. */
const singleton: WriteStyle = {
  name: "singletons /settings and /me",
  item: 4,
  app: () => {
    const settings: Entity = { theme: "light", language: "en", notifications: true };
    const me: Entity = { id: 7, name: "Ann", email: "ann@example.test", bio: "" };
    return (req) => {
      if (route(req, "GET /api/settings")) return json(200, settings);
      if (route(req, "PATCH /api/settings")) return json(200, Object.assign(settings, obj(req.body)));
      if (route(req, "GET /api/me")) return json(200, me);
      if (route(req, "PATCH /api/me")) return json(200, Object.assign(me, obj(req.body)));
      return notFound();
    };
  },
  train: [
    { path: "/api/settings" },
    { method: "PATCH", path: "/api/settings", body: { theme: "dark" } },
    { path: "/api/settings" },
    { method: "PATCH", path: "/api/settings", body: { language: "de" } },
    { path: "/api/settings" },
    { path: "/api/me" },
    { method: "PATCH", path: "/api/me", body: { bio: "gardener" } },
    { path: "/api/me" },
  ],
  // A recorded field with a new value first (the twin writes it), then a field no training PATCH sent: the settings
  // PATCH stored each of its two fields as sent, so it stores any scalar field of the document it is sent (learn
  // spec "Singleton documents"); /me's one PATCHed field proves nothing of the others (issue 13: the twin does not
  // write `name` and says so, an explained miss, and the read after it differs from the app's).
  heldout: [
    { method: "PATCH", path: "/api/settings", body: { theme: "solarized" } },
    { path: "/api/settings" },
    { method: "PATCH", path: "/api/settings", body: { notifications: false } },
    { path: "/api/settings" },
    { method: "PATCH", path: "/api/me", body: { bio: "painter" } },
    { path: "/api/me" },
    { method: "PATCH", path: "/api/me", body: { name: "Ann B." } },
    { path: "/api/me" },
  ],
};

// ---------------------------------------------------------------- item 5

/** Every comment holds the signed-in user's UUID and a zone-less local time. */
const userConstant: WriteStyle = {
  name: "constant UUID of the user, zone-less clock",
  item: 5,
  app: () => {
    const user = "5f0c6a2e-1b3d-4c5e-8f70-9a1b2c3d4e5f";
    const rows: Entity[] = [];
    let n = 0;
    const uuid = () => `00000000-0000-4000-8000-${String(++n * 7919).padStart(12, "0")}`;
    return (req) => {
      if (route(req, "GET /api/comments")) return json(200, rows);
      const p = route(req, "GET /api/comments/:id");
      if (p) {
        const row = rows.find((r) => r.id === p.id);
        return row ? json(200, row) : notFound();
      }
      if (route(req, "POST /api/comments")) {
        const row = {
          id: uuid(),
          text: obj(req.body).text,
          user_created: user,
          date_created: now().slice(0, 19),
        };
        rows.push(row);
        return json(200, row);
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/comments" },
    { method: "POST", path: "/api/comments", body: { text: "first" } },
    { path: "/api/comments" },
    { method: "POST", path: "/api/comments", body: { text: "second" } },
    { path: "/api/comments" },
  ],
  heldout: [
    { method: "POST", path: "/api/comments", body: { text: "third one" } },
    { path: "/api/comments" },
  ],
};

// ---------------------------------------------------------------- item 6

/** `POST /api/track` changes nothing any read shows: acknowledged. */
const acknowledged: WriteStyle = {
  name: "write with no visible effect",
  item: 6,
  app: () => {
    const t = new Table([{ id: 1, title: "A", done: false }]);
    return (req) => {
      const r = reads(req, t, "/api/things", "/api/things/:id");
      if (r) return r;
      if (route(req, "POST /api/track")) return { status: 204 };
      return notFound();
    };
  },
  train: [
    { path: "/api/things" },
    { method: "POST", path: "/api/track", body: { event: "view", page: "/things" } },
    { path: "/api/things" },
  ],
  heldout: [
    { method: "POST", path: "/api/track", body: { event: "click", page: "/things/1" } },
    { path: "/api/things" },
  ],
};

/** `POST /api/auth/refresh`: the refresh cookie in, nothing else sent, a new session cookie out. */
const sessionRefresh: WriteStyle = {
  name: "session refresh",
  item: 6,
  app: () => {
    let n = 0;
    const t = new Table([{ id: 1, title: "A", done: false }]);
    return (req) => {
      const r = reads(req, t, "/api/things", "/api/things/:id");
      if (r) return r;
      if (route(req, "POST /api/auth/refresh") && String(req.headers.cookie ?? "").startsWith("refresh="))
        return json(200, { ok: true, expires_in: 900 }, { "set-cookie": `session=s${++n}; HttpOnly` });
      return notFound();
    };
  },
  train: [
    { path: "/api/things" },
    { method: "POST", path: "/api/auth/refresh", headers: { cookie: "refresh=r-train" } },
    { path: "/api/things" },
  ],
  heldout: [
    { method: "POST", path: "/api/auth/refresh", headers: { cookie: "refresh=r-heldout" } },
    { path: "/api/things" },
  ],
};

// ---------------------------------------------------------------- item 7

/**
 * `POST /api/products`: `price` must be a number (422), at least 0 (422 with its own body),
 * `sku` unique (409), `description` may be missing but not null (400).
 */
const validations: WriteStyle = {
  name: "validations: type, range, uniqueness, null vs missing",
  item: 7,
  app: () => {
    const t = new Table([{ id: 1, name: "Pen", price: 2, sku: "PEN-1", description: "blue" }]);
    return (req) => {
      const r = reads(req, t, "/api/products", "/api/products/:id");
      if (r) return r;
      if (route(req, "POST /api/products")) {
        const b = obj(req.body);
        if (typeof b.price !== "number") return json(422, { error: "price must be a number" });
        if (b.price < 0) return json(422, { error: "price must be at least 0" });
        if (b.description === null) return json(400, { error: "description may not be null" });
        if (t.rows.some((row) => row.sku === b.sku)) return json(409, { error: "sku already exists" });
        return json(
          201,
          t.add({ name: b.name, price: b.price, sku: b.sku, description: b.description ?? "" }),
        );
      }
      return notFound();
    };
  },
  train: [
    { path: "/api/products" },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Ink", price: 5, sku: "INK-1", description: "black" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Pad", price: "cheap", sku: "PAD-1", description: "A5" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Pad", price: -1, sku: "PAD-1", description: "A5" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Pad", price: 3, sku: "PEN-1", description: "A5" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Pad", price: 3, sku: "PAD-1", description: null },
    },
    { method: "POST", path: "/api/products", body: { name: "Pad", price: 3, sku: "PAD-1" } },
    { path: "/api/products" },
  ],
  heldout: [
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Cup", price: "4", sku: "CUP-1", description: "tall" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Cup", price: -7, sku: "CUP-1", description: "tall" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Cup", price: 4, sku: "INK-1", description: "tall" },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Cup", price: 4, sku: "CUP-1", description: null },
    },
    {
      method: "POST",
      path: "/api/products",
      body: { name: "Cup", price: 4, sku: "CUP-1", description: "tall" },
    },
    { path: "/api/products" },
  ],
};

/** Every convention, in issue order. */
export const WRITE_STYLES: WriteStyle[] = [
  itemPath,
  itemPathNoItemRead,
  createIdOnly,
  createLocation,
  createWrapped,
  clientId,
  wholeDocument,
  arrayReplace,
  revBody,
  etag,
  batch,
  batchDisagrees,
  action,
  singleton,
  userConstant,
  acknowledged,
  sessionRefresh,
  validations,
];
