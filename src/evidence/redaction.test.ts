import { describe, expect, it } from "vitest";
import type { Body, Evidence, EvidenceRecord } from "./evidence-schema.js";
import { createRedactor, redactEvidence, shortSecret } from "./redaction.js";

const body = (
  text: string,
  mime: string | null = "application/json",
  encoding: Body["encoding"] = "utf8",
): Body => ({
  encoding,
  text,
  size: encoding === "base64" ? Buffer.from(text, "base64").length : Buffer.byteLength(text),
  truncated: false,
  mime_type: mime,
});
const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString("base64");
const unb64 = (s: string): string => Buffer.from(s, "base64").toString("utf8");

describe("createRedactor: declared secrets", () => {
  it("replaces a secret and its encoded forms everywhere in a text", () => {
    const r = createRedactor({ secrets: [{ id: "password", value: 'p@ss word/"x"' }] });
    const text = `raw p@ss word/"x" uri ${encodeURIComponent('p@ss word/"x"')} form p%40ss+word%2F%22x%22 json ${JSON.stringify('p@ss word/"x"')}`;
    expect(r.redactText(text)).toBe(
      'raw [REDACTED:secret:password] uri [REDACTED:secret:password] form [REDACTED:secret:password] json "[REDACTED:secret:password]"',
    );
    expect(r.markers()).toEqual([{ marker: "[REDACTED:secret:password]", kind: "secret", count: 4 }]);
  });

  it("replaces the longest secret first", () => {
    const r = createRedactor({
      secrets: [
        { id: "short", value: "abcdefgh" },
        { id: "long", value: "abcdefgh-ijkl" },
      ],
    });
    expect(r.redactText("x abcdefgh-ijkl y abcdefgh")).toBe(
      "x [REDACTED:secret:long] y [REDACTED:secret:short]",
    );
  });

  it("redacts a declared secret of any length, but never rewrites an existing marker", () => {
    const r = createRedactor({ secrets: [{ id: "s", value: "REDACTED" }] });
    expect(r.redactText("[REDACTED:field:password] and REDACTED")).toBe(
      "[REDACTED:field:password] and [REDACTED:secret:s]",
    );
  });
});

describe("createRedactor: page-read values", () => {
  it("redacts values of 8 characters or more, leaves shorter ones so ids and ports survive", () => {
    const r = createRedactor({ secrets: [] });
    r.addPageValue("tok-12345678", "[REDACTED:page:create-1.x-csrf-token]");
    r.addPageValue("4010", "[REDACTED:page:create-1.x-port]");
    r.addPageValue("1234567", "[REDACTED:page:create-1.x-id]");
    expect(r.redactText("tok-12345678 on 4010 id 1234567")).toBe(
      "[REDACTED:page:create-1.x-csrf-token] on 4010 id 1234567",
    );
  });

  it("keeps the first marker of a value read again", () => {
    const r = createRedactor({ secrets: [] });
    r.addPageValue("tok-12345678", "[REDACTED:page:create-1.x-csrf-token]");
    r.addPageValue("tok-12345678", "[REDACTED:page:create-2.x-csrf-token]");
    expect(r.redactText("a tok-12345678")).toBe("a [REDACTED:page:create-1.x-csrf-token]");
  });

  it("lets a declared secret win over the same value read from the page", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "hunter2-hunter2" }] });
    r.addPageValue("hunter2-hunter2", "[REDACTED:page:s.authorization]");
    expect(r.redactText("hunter2-hunter2")).toBe("[REDACTED:secret:pw]");
  });
});

describe("createRedactor: headers", () => {
  it("replaces credential headers, keeps cookie names and Set-Cookie attributes", () => {
    const r = createRedactor({ secrets: [] });
    const out = r.redactHeaders([
      { name: "Authorization", value: "Bearer eyJhbGciOi.payload.sig" },
      { name: "Proxy-Authorization", value: "Basic dXNlcjpwYXNz" },
      { name: "Cookie", value: "session=abcdef0123456789; csrftoken=csrf-0123456789; theme=dark" },
      { name: "Set-Cookie", value: "session=abcdef0123456789; Path=/; HttpOnly\nlang=en; Path=/" },
      { name: "x-csrf-token", value: "csrf-0123456789" },
      { name: "Accept", value: "application/json" },
    ]);
    expect(out).toEqual([
      { name: "Authorization", value: "[REDACTED:header:authorization]" },
      { name: "Proxy-Authorization", value: "[REDACTED:header:proxy-authorization]" },
      {
        name: "Cookie",
        value:
          "session=[REDACTED:header:cookie]; csrftoken=[REDACTED:header:cookie]; theme=[REDACTED:header:cookie]",
      },
      {
        name: "Set-Cookie",
        value: "session=[REDACTED:header:cookie]; Path=/; HttpOnly\nlang=[REDACTED:header:cookie]; Path=/",
      },
      { name: "x-csrf-token", value: "[REDACTED:header:cookie]" },
      { name: "Accept", value: "application/json" },
    ]);
    // The bearer token itself is learned, so it is redacted where it reappears.
    expect(r.redactText("token eyJhbGciOi.payload.sig")).toBe("token [REDACTED:header:authorization]");
    const basic = createRedactor({ secrets: [] });
    basic.redactHeaders([{ name: "Authorization", value: `Basic ${b64("admin:long-password-1")}` }]);
    expect(basic.redactText("pw long-password-1")).toBe("pw [REDACTED:header:authorization]");
  });

  it("replaces a credential-named custom header even when its value is short, but not CORS headers", () => {
    const r = createRedactor({ secrets: [] });
    expect(
      r.redactHeaders([
        { name: "X-Api-Key", value: "k-42" },
        { name: "Access-Control-Allow-Credentials", value: "true" },
      ]),
    ).toEqual([
      { name: "X-Api-Key", value: "[REDACTED:header:x-api-key]" },
      { name: "Access-Control-Allow-Credentials", value: "true" },
    ]);
  });

  it("keeps the page marker on a header whose value was read from the page", () => {
    const r = createRedactor({ secrets: [] });
    r.addPageValue("csrf-0123456789", "[REDACTED:page:create-1.x-csrf-token]");
    expect(r.redactHeaders([{ name: "x-csrf-token", value: "csrf-0123456789" }])).toEqual([
      { name: "x-csrf-token", value: "[REDACTED:page:create-1.x-csrf-token]" },
    ]);
  });
});

describe("createRedactor: bodies", () => {
  it("replaces credential-named JSON string fields, keeping every other byte, numbers included", () => {
    const r = createRedactor({ secrets: [] });
    const text =
      '{ "user": {"password" : "s3cret-pass", "tokens_used": 12.0},\n "refreshToken": "rt-abcdefgh", "list": ["token"] }';
    const out = r.redactBody(body(text));
    expect(out!.text).toBe(
      '{ "user": {"password" : "[REDACTED:field:password]", "tokens_used": 12.0},\n "refreshToken": "[REDACTED:field:refreshToken]", "list": ["token"] }',
    );
    expect(out!.size).toBe(Buffer.byteLength(text));
    // Learned values are redacted wherever they reappear, JSON-escaped or URL-encoded.
    expect(r.redactText("rt-abcdefgh and s3cret-pass")).toBe(
      "[REDACTED:field:refreshToken] and [REDACTED:field:password]",
    );
  });

  it("redacts a learned value in its JSON-escaped form", () => {
    const r = createRedactor({ secrets: [] });
    r.learnFromBody(body('{"api_key":"a/b\\"c-1234"}'), "application/json");
    expect(r.redactBody(body('{"echo":"key was a\\/b\\"c-1234"}'))!.text).toBe(
      '{"echo":"key was [REDACTED:field:api_key]"}',
    );
  });

  it("replaces credential-named fields of url-encoded forms and learns them", () => {
    const r = createRedactor({ secrets: [] });
    const out = r.redactBody(
      body("email=a%40b.test&password=pa%24%24w0rd-long&remember=1", "application/x-www-form-urlencoded"),
    );
    expect(out!.text).toBe("email=a%40b.test&password=[REDACTED:field:password]&remember=1");
    expect(r.redactText("pa$$w0rd-long")).toBe("[REDACTED:field:password]");
  });

  it("redacts known values in plain text bodies", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "hunter2-hunter2" }] });
    expect(r.redactBody(body("you typed hunter2-hunter2", "text/plain"))!.text).toBe(
      "you typed [REDACTED:secret:pw]",
    );
  });

  it("decodes base64 text bodies, redacts them and encodes them again", () => {
    const r = createRedactor({ secrets: [] });
    const out = r.redactBody(body(b64('{"token":"tok-abcdefgh"}'), "application/json", "base64"));
    expect(out!.encoding).toBe("base64");
    expect(unb64(out!.text)).toBe('{"token":"[REDACTED:field:token]"}');
  });

  it("scans binary base64 bodies byte-wise for known ASCII values and leaves other bytes as they were", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "hunter2-hunter2" }] });
    const bytes = Buffer.concat([
      Buffer.from([0, 1, 2, 0xff]),
      Buffer.from("hunter2-hunter2"),
      Buffer.from([0xfe]),
    ]);
    const out = r.redactBody(body(b64(bytes), "multipart/form-data", "base64"));
    expect(Buffer.from(out!.text, "base64")).toEqual(
      Buffer.concat([Buffer.from([0, 1, 2, 0xff]), Buffer.from("[REDACTED:secret:pw]"), Buffer.from([0xfe])]),
    );
    const png = b64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 7]));
    expect(r.redactBody(body(png, "image/png", "base64"))!.text).toBe(png);
  });

  it("cuts the start of a known value at the end of a truncated body", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "hunter2-hunter2" }] });
    const out = r.redactBody({ ...body("x=hunter2-hun", "text/plain"), truncated: true });
    expect(out!.text).toBe("x=[REDACTED:secret:pw]");
  });

  it("keeps null bodies null", () => {
    expect(createRedactor({ secrets: [] }).redactBody(null)).toBeNull();
  });
});

describe("createRedactor: URLs", () => {
  it("redacts paths, credential-named query parameters, encoded values and userinfo", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "hunter 2 hunter" }] });
    r.addPageValue("page-value-123", "[REDACTED:page:s1.x-token]");
    expect(
      r.redactUrl("http://127.0.0.1:4010/api/page-value-123/items?q=hunter+2+hunter&access_token=abc&id=7#x"),
    ).toBe(
      "http://127.0.0.1:4010/api/[REDACTED:page:s1.x-token]/items?q=[REDACTED:secret:pw]&access_token=[REDACTED:field:access_token]&id=7#x",
    );
    expect(r.redactUrl("http://admin:pw@127.0.0.1/x")).toBe("http://[REDACTED:field:userinfo]@127.0.0.1/x");
  });

  it("learns a credential query value so it is redacted elsewhere", () => {
    const r = createRedactor({ secrets: [] });
    r.redactUrl("http://a.test/x?api_key=key-abcdefgh");
    expect(r.redactText("sent key-abcdefgh")).toBe("sent [REDACTED:field:api_key]");
  });
});

const rec = (seq: number, over: Partial<EvidenceRecord>): EvidenceRecord => ({
  seq,
  step_id: null,
  started_at: 1000 + seq,
  duration_ms: 1,
  resource_type: "fetch",
  initiator: "page",
  request: { method: "GET", url: "http://127.0.0.1:4010/api/x", headers: [], body: null },
  response: { status: 200, status_text: "OK", headers: [], body: null, redirect_to: null },
  failure: null,
  origin: null,
  ...over,
});

/** A passed capture's evidence holding `records`, nothing else. */
const evidenceOf = (records: EvidenceRecord[]): Omit<Evidence, "redactions" | "evidence_id"> => ({
  schema_version: 1,
  source: { kind: "capture", scenario: { name: "s", digest: "d" }, har: null, merged: null },
  app_origin: "http://127.0.0.1:4010",
  allowed_origins: [],
  browser: null,
  started_at: 1000,
  finished_at: 2000,
  verdict: "passed",
  steps: [],
  records,
  warnings: [],
  limitations: [],
});

describe("redactEvidence", () => {
  it("learns from every record before redacting any, and covers steps, failures and warnings", () => {
    const token = "tok-login-4f9a2c7e";
    const e: Omit<Evidence, "redactions" | "evidence_id"> = {
      schema_version: 1,
      source: { kind: "capture", scenario: { name: "s", digest: "d" }, har: null, merged: null },
      app_origin: "http://127.0.0.1:4010",
      allowed_origins: [],
      browser: null,
      started_at: 1000,
      finished_at: 2000,
      verdict: "failed",
      steps: [
        {
          step_id: "open",
          action: "navigate",
          status: "failed",
          started_at: 1000,
          duration_ms: 5,
          error: `expected text, page said ${token}`,
          url_before: "http://127.0.0.1:4010/",
          url_after: `http://127.0.0.1:4010/cb?token=${token}`,
        },
      ],
      records: [
        rec(0, {
          request: { method: "GET", url: `http://127.0.0.1:4010/early/${token}`, headers: [], body: null },
        }),
        rec(1, { response: null, failure: { kind: "network", message: `failed ${token}` } }),
        rec(2, {
          request: { method: "POST", url: "http://127.0.0.1:4010/api/login", headers: [], body: null },
          response: {
            status: 200,
            status_text: "OK",
            headers: [],
            body: body(`{"token":"${token}"}`),
            redirect_to: `http://127.0.0.1:4010/next?t=${token}`,
          },
        }),
      ],
      warnings: [{ code: "w", message: `saw ${token}`, pointer: "/records/2" }],
      limitations: [],
    };
    const out = redactEvidence(e, createRedactor({ secrets: [] }));
    const text = JSON.stringify(out);
    expect(text).not.toContain(token);
    expect(out.records[0]!.request.url).toBe("http://127.0.0.1:4010/early/[REDACTED:field:token]");
    expect(out.records[1]!.failure!.message).toBe("failed [REDACTED:field:token]");
    expect(out.steps[0]!.error).toBe("expected text, page said [REDACTED:field:token]");
    expect(out.steps[0]!.url_after).toBe("http://127.0.0.1:4010/cb?token=[REDACTED:field:token]");
    expect(out.warnings[0]!.message).toBe("saw [REDACTED:field:token]");
    expect(out.redactions).toEqual([{ marker: "[REDACTED:field:token]", kind: "field", count: 7 }]);
    expect(out.evidence_id).toMatch(/^ev_[0-9a-f]{16}$/);
    expect(redactEvidence(e, createRedactor({ secrets: [] }))).toEqual(out);
  });

  it("redacts a secret used as a name: a header's, a cookie's, a query parameter's and a JSON key, and the markers named after them", () => {
    const secret = "Zq7xTokenSecret9";
    const e = evidenceOf([
      rec(0, {
        request: {
          method: "GET",
          url: `http://127.0.0.1:4010/api/x?${secret}=1&${secret.toLowerCase()}_key=s3cr3t-value-42`,
          headers: [
            { name: secret, value: "v" },
            { name: `x-${secret.toLowerCase()}-id`, value: "7" },
            { name: "Cookie", value: `${secret}=abc; theme=dark` },
          ],
          body: null,
        },
        response: {
          status: 200,
          status_text: "OK",
          headers: [{ name: "Set-Cookie", value: `${secret}=1; Path=/` }],
          body: body(JSON.stringify({ [secret]: 1, ok: true })),
          redirect_to: null,
        },
      }),
    ]);
    const out = redactEvidence(e, createRedactor({ secrets: [{ id: "NAME_SECRET", value: secret }] }));
    expect(JSON.stringify(out).toLowerCase()).not.toContain(secret.toLowerCase());
    const r = out.records[0]!;
    expect(r.request.headers.map((h) => h.name)).toEqual([
      "secret.NAME_SECRET",
      "x-secret.NAME_SECRET-id",
      "Cookie",
    ]);
    for (const h of r.request.headers) expect(h.name).toMatch(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/);
    expect(r.request.headers[2]!.value).toBe(
      "secret.NAME_SECRET=[REDACTED:header:cookie]; theme=[REDACTED:header:cookie]",
    );
    expect(r.response!.headers[0]!.value).toBe("secret.NAME_SECRET=[REDACTED:header:cookie]; Path=/");
    expect(r.request.url).toBe(
      "http://127.0.0.1:4010/api/x?[REDACTED:secret:NAME_SECRET]=[REDACTED:field:secret.NAME_SECRET]&[REDACTED:secret:NAME_SECRET]_key=[REDACTED:field:secret.NAME_SECRET_key]",
    );
    expect(out.redactions.map((m) => m.marker)).toContain("[REDACTED:field:secret.NAME_SECRET_key]");
  });
});

describe("createRedactor: other encodings a value takes in traffic", () => {
  it("finds a value in a JSON string written with \\u escapes (Python's ensure_ascii, Go's HTML-safe escapes, any \\u0041)", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "Pässw0rd<&>ok" }] });
    const python = '{"echo": "P\\u00e4ssw0rd<&>ok", "n": 1}';
    const go = '{"echo":"Pässw0rd\\u003c\\u0026\\u003eok"}';
    const any = '{"echo":"\\u0050\\u00E4ssw0rd<&>ok, twice: Pässw0rd<&>ok"}';
    const out = [python, go, any].map((t) => r.redactBody(body(t))!.text);
    expect(out).toEqual([
      '{"echo": "[REDACTED:secret:pw]", "n": 1}',
      '{"echo":"[REDACTED:secret:pw]"}',
      '{"echo":"[REDACTED:secret:pw], twice: [REDACTED:secret:pw]"}',
    ]);
  });

  it("finds a value in a URL path or query as a browser percent-encodes it (only some characters)", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "Pä$s w@rd!" }] });
    // What Chromium makes of location = "/u/Pä$s w@rd!" and "?q=Pä$s w@rd!": non-ASCII and space encoded, "$@!" kept.
    const url = new URL("http://127.0.0.1:1/u/Pä$s w@rd!?q=Pä$s w@rd!#Pä$s w@rd!").href;
    expect(url).toBe("http://127.0.0.1:1/u/P%C3%A4$s%20w@rd!?q=P%C3%A4$s%20w@rd!#P%C3%A4$s%20w@rd!");
    expect(r.redactUrl(url)).toBe(
      "http://127.0.0.1:1/u/[REDACTED:secret:pw]?q=[REDACTED:secret:pw]#[REDACTED:secret:pw]",
    );
  });
});

describe("createRedactor: multipart bodies", () => {
  const multipart = (parts: [string, string][], boundary = "----WebKitFormBoundaryX1") =>
    `${parts.map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join("")}--${boundary}--\r\n`;

  it("replaces credential-named parts of a multipart form and learns their values", () => {
    const r = createRedactor({ secrets: [] });
    const mime = "multipart/form-data; boundary=----WebKitFormBoundaryX1";
    const text = multipart([
      ["email", "a@example.test"],
      ["password", "correct horse battery"],
    ]);
    expect(r.redactBody(body(text, mime))!.text).toBe(
      multipart([
        ["email", "a@example.test"],
        ["password", "[REDACTED:field:password]"],
      ]),
    );
    expect(r.redactText("echo correct horse battery")).toBe("echo [REDACTED:field:password]");
  });
});

describe("createRedactor: a page without a charset", () => {
  it("finds a Latin-1 value form-encoded as windows-1252 (what Chromium sends for such a page)", () => {
    const r = createRedactor({ secrets: [{ id: "pw", value: "Pä$s w@rd-9f3k" }] });
    expect(r.redactText("it is /login?q=P%E4%24s+w%40rd-9f3k")).toBe("it is /login?q=[REDACTED:secret:pw]");
  });
});

describe("redaction that never corrupts the app's own files", () => {
  const answer = (seq: number, resource: EvidenceRecord["resource_type"], text: string, mime: string) =>
    rec(seq, {
      resource_type: resource,
      response: { status: 200, status_text: "OK", headers: [], body: body(text, mime), redirect_to: null },
    });
  const script =
    'const w = { password: "Password", token: "" }; with (w) { label(password); } // secret token';
  const randomToken = "8vX2qL0pZr7sKd3mWn5tYb1cFh9gJe4u";

  it("learns no label, empty string or boolean from a locale file, and leaves the script byte for byte", () => {
    const locale = JSON.stringify({ password: "Password", token: "", secret: true, remember: "Remember me" });
    const out = redactEvidence(
      evidenceOf([
        answer(0, "fetch", locale, "application/json"),
        answer(1, "script", script, "text/javascript"),
      ]),
      createRedactor({ secrets: [] }),
    );
    expect(out.records[0]!.response!.body!.text).toBe(locale);
    expect(out.records[1]!.response!.body!.text).toBe(script);
    expect(out.redactions).toEqual([]);
  });

  it("still redacts a random token under token everywhere, inside scripts and documents too", () => {
    const page = `<script>window.SESSION = {"token": "${randomToken}"};</script>`;
    const out = redactEvidence(
      evidenceOf([
        answer(0, "fetch", JSON.stringify({ token: randomToken }), "application/json"),
        answer(1, "document", page, "text/html"),
        answer(2, "script", `${script} ${randomToken}`, "text/javascript"),
      ]),
      createRedactor({ secrets: [] }),
    );
    expect(JSON.stringify(out)).not.toContain(randomToken);
    expect(out.records[1]!.response!.body!.text).toBe(
      '<script>window.SESSION = {"token": "[REDACTED:field:token]"};</script>',
    );
    expect(out.records[2]!.response!.body!.text).toBe(`${script} [REDACTED:field:token]`);
  });

  it("replaces a learned credential that does not look random in API records, but not inside a script", () => {
    const sent = rec(0, {
      request: {
        method: "POST",
        url: "http://127.0.0.1:4010/login",
        headers: [],
        body: body("log=admin&pwd=hunter2hunter2", "application/x-www-form-urlencoded"),
      },
    });
    const echo = answer(1, "fetch", '{"note":"hunter2hunter2"}', "application/json");
    const js = answer(2, "script", "var demo = 'hunter2hunter2';", "text/javascript");
    const out = redactEvidence(evidenceOf([sent, echo, js]), createRedactor({ secrets: [] }));
    expect(out.records[0]!.request.body!.text).toBe("log=admin&pwd=[REDACTED:field:pwd]");
    expect(out.records[1]!.response!.body!.text).toBe('{"note":"[REDACTED:field:pwd]"}');
    expect(out.records[2]!.response!.body!.text).toBe("var demo = 'hunter2hunter2';");
  });

  it("replaces a declared secret inside a script too", () => {
    const out = redactEvidence(
      evidenceOf([answer(0, "script", "var pw = 'hunter2hunter2';", "text/javascript")]),
      createRedactor({ secrets: [{ id: "pw", value: "hunter2hunter2" }] }),
    );
    expect(out.records[0]!.response!.body!.text).toBe("var pw = '[REDACTED:secret:pw]';");
  });

  it("learns a credential from a page's markup (a CSRF meta tag, a token attribute) and redacts it everywhere, the page too", () => {
    const csrf = "Zq3Lm9PxR2vT8kWn4bYc7dHs1fJg6aE0uQiOpXwVzNy=";
    const html = `<meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrf}"><body data-jupyter-api-token="realappsjupytertoken0001"><input type="password" name="password" value=""><input name="authenticity_token" value="${csrf}">`;
    const out = redactEvidence(
      evidenceOf([
        answer(0, "document", html, "text/html"),
        rec(1, {
          request: {
            method: "GET",
            url: "http://127.0.0.1:4010/api/x",
            headers: [{ name: "x-csrf-token", value: csrf }],
            body: null,
          },
        }),
      ]),
      createRedactor({ secrets: [] }),
    );
    expect(out.records[0]!.response!.body!.text).toBe(
      '<meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="[REDACTED:header:x-csrf-token]"><body data-jupyter-api-token="[REDACTED:field:data-jupyter-api-token]"><input type="password" name="password" value=""><input name="authenticity_token" value="[REDACTED:header:x-csrf-token]">',
    );
    expect(out.records[1]!.request.headers).toEqual([
      { name: "x-csrf-token", value: "[REDACTED:header:x-csrf-token]" },
    ]);
  });

  it("learns no cookie value that cannot be a credential (WordPress's test cookie), so the login page's script keeps it", () => {
    const login = 'document.cookie = "wordpress_test_cookie=WP+Cookie+check; path=/";';
    const out = redactEvidence(
      evidenceOf([
        rec(0, {
          response: {
            status: 200,
            status_text: "OK",
            headers: [{ name: "Set-Cookie", value: "wordpress_test_cookie=WP%20Cookie%20check; path=/" }],
            body: body(login, "text/html"),
            redirect_to: null,
          },
          resource_type: "document",
        }),
      ]),
      createRedactor({ secrets: [] }),
    );
    expect(out.records[0]!.response!.body!.text).toBe(login);
    expect(out.records[0]!.response!.headers[0]!.value).toBe(
      "wordpress_test_cookie=[REDACTED:header:cookie]; path=/",
    );
  });
});

describe("redaction never makes a JSON document invalid (issue 13)", () => {
  const redacted = (secret: string, text: string) =>
    createRedactor({ secrets: [{ id: "pin", value: secret }] }).redactBody(body(text))!.text;

  it("replaces a secret that is also a number or a literal by a string holding its marker", () => {
    for (const [secret, text] of [
      ["1234", '{"n":1234,"s":"a1234b","list":[1,12345,1234]}'],
      ["true", '{"ok":true,"s":"is true"}'],
      ["null", '{"v":null,"w":"nullable"}'],
    ] as const) {
      const out = redacted(secret, text);
      expect(() => JSON.parse(out)).not.toThrow();
      expect(out).not.toContain(secret);
      expect(out).toContain("[REDACTED:secret:pin]");
    }
    expect(redacted("1234", '{"n":1234}')).toBe('{"n":"[REDACTED:secret:pin]"}');
  });

  it("still replaces a value spanning punctuation, leak before validity", () => {
    expect(redacted('1,"b', '[1,"b"]')).not.toContain('1,"b');
  });
});

describe("shortSecret", () => {
  it("refuses a declared secret under 4 characters, naming its length", () => {
    expect(shortSecret("abcd")).toBeNull();
    expect(shortSecret("a")).toBe(
      "is 1 character long; a declared secret must be at least 4 (so short a value occurs all over a recording, and redacting it would rewrite digits and letters of every answer)",
    );
    expect(shortSecret("ab")).toContain("is 2 characters long");
  });
});

describe("a value an answer handed out and a request header sent back (issue 13)", () => {
  const nonce = "50c1bbcbc3";
  const answer = (seq: number, text: string, mime = "text/html") =>
    rec(seq, {
      request: {
        method: "GET",
        url: `http://127.0.0.1:4010/ajax?action=rest-nonce&n=${seq}`,
        headers: [],
        body: null,
      },
      response: { status: 200, status_text: "OK", headers: [], body: body(text, mime), redirect_to: null },
    });
  const sent = (seq: number, name: string, value: string, url = "http://127.0.0.1:4010/api/posts") =>
    rec(seq, {
      request: { method: "POST", url, headers: [{ name, value }], body: null },
      response: {
        status: 201,
        status_text: "Created",
        headers: [{ name: "X-Echo", value }],
        body: null,
        redirect_to: null,
      },
    });

  it("is a credential by its role, whatever the header's name: replaced everywhere, the answer that handed it out too", () => {
    const out = redactEvidence(
      evidenceOf([answer(0, nonce), sent(1, "x-wp-nonce", nonce)]),
      createRedactor({ secrets: [] }),
    );
    const text = JSON.stringify(out);
    expect(text).not.toContain(nonce);
    expect(out.records[0]!.response!.body!.text).toBe("[REDACTED:header:x-wp-nonce]");
    expect(out.records[1]!.request.headers).toEqual([
      { name: "x-wp-nonce", value: "[REDACTED:header:x-wp-nonce]" },
    ]);
    expect(out.records[1]!.response!.headers).toEqual([
      { name: "X-Echo", value: "[REDACTED:header:x-wp-nonce]" },
    ]);
  });

  it("is not one when no answer handed it out first, when a URL carries it (an id), or in a plain header", () => {
    const id = "ws_8f2k1m9q";
    const kept = redactEvidence(
      evidenceOf([
        sent(0, "x-early", nonce),
        answer(1, `{"workspace":"${id}","etag":"W/abc12345xyz"}`, "application/json"),
        sent(2, "x-workspace", id, `http://127.0.0.1:4010/api/workspaces/${id}/posts`),
        sent(3, "if-none-match", "W/abc12345xyz"),
      ]),
      createRedactor({ secrets: [] }),
    );
    const text = JSON.stringify(kept);
    expect(text).toContain(nonce);
    expect(text).toContain(id);
    expect(text).toContain("W/abc12345xyz");
  });
});
