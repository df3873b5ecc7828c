import { describe, expect, it } from "vitest";
import { DocumentError } from "../errors/user-error.js";
import {
  appOriginOf,
  HAR_LIMITATION,
  harTextToEvidence,
  harToEvidence,
  resourceTypeOf,
} from "./har-import.js";
import type { HarEntry } from "./har-schema.js";

const entry = (url: string, mime: string, extra: Partial<HarEntry> = {}): HarEntry => ({
  startedDateTime: "2024-05-01T10:00:00.000Z",
  time: 5,
  request: { method: "GET", url, headers: [] },
  response: { status: 200, statusText: "OK", headers: [], content: { size: 2, mimeType: mime, text: "{}" } },
  ...extra,
});
const har = (entries: HarEntry[], version = "1.2") => ({
  log: { version, creator: { name: "Firefox", version: "126.0" }, entries },
});
const opts = { file: "rec.har", fileName: "rec.har", secrets: [] };

describe("resourceTypeOf", () => {
  it("uses DevTools' _resourceType, else the media type", () => {
    expect(resourceTypeOf(entry("http://a.test/", "text/html", { _resourceType: "XHR" }))).toBe("xhr");
    expect(resourceTypeOf(entry("http://a.test/", "text/html", { _resourceType: "ping" }))).toBe("other");
    expect(
      [
        "text/html",
        "text/javascript",
        "text/css",
        "image/png",
        "font/woff2",
        "video/mp4",
        "application/json",
      ].map((m) => resourceTypeOf(entry("http://a.test/", m))),
    ).toEqual(["document", "script", "stylesheet", "image", "font", "media", "fetch"]);
  });
});

describe("appOriginOf", () => {
  it("takes the first document's origin", () => {
    expect(
      appOriginOf([
        entry("https://cdn.test/a.js", "text/javascript"),
        entry("http://app.test:8080/x", "text/html"),
      ]),
    ).toBe("http://app.test:8080");
  });

  it("without a document, takes the most common origin, ties to the first seen", () => {
    const api = (o: string) => entry(`${o}/api`, "application/json");
    expect(appOriginOf([api("http://b.test"), api("http://a.test"), api("http://a.test")])).toBe(
      "http://a.test",
    );
    expect(appOriginOf([api("http://b.test"), api("http://a.test")])).toBe("http://b.test");
  });
});

describe("harToEvidence", () => {
  it("builds incomplete evidence with no steps, times from the entries, and a HAR source", () => {
    const e = harToEvidence(
      har([
        entry("http://a.test/", "text/html"),
        entry("http://a.test/api", "application/json", {
          startedDateTime: "2024-05-01T10:00:01.000Z",
          time: 20,
        }),
      ]),
      opts,
    );
    expect(e.verdict).toBe("incomplete");
    expect(e.steps).toEqual([]);
    expect(e.limitations).toEqual([HAR_LIMITATION]);
    expect(e.started_at).toBe(Date.parse("2024-05-01T10:00:00.000Z"));
    expect(e.finished_at).toBe(Date.parse("2024-05-01T10:00:01.020Z"));
    expect(e.source.har).toEqual({ file_name: "rec.har", creator: "Firefox 126.0" });
    expect(e.records.map((r) => [r.seq, r.initiator, r.step_id])).toEqual([
      [0, "page", null],
      [1, "page", null],
    ]);
  });

  it("builds a request body from postData params when there is no text", () => {
    const e = harToEvidence(
      har([
        entry("http://a.test/login", "text/html", {
          request: {
            method: "POST",
            url: "http://a.test/login",
            headers: [],
            postData: {
              mimeType: "application/x-www-form-urlencoded",
              params: [
                { name: "user", value: "a b" },
                { name: "password", value: "pw-12345678" },
              ],
            },
          },
        }),
      ]),
      opts,
    );
    expect(e.records[0]!.request.body!.text).toBe("user=a%20b&password=[REDACTED:field:password]");
  });

  it("refuses a HAR of another version and an empty one, naming the field", () => {
    expect(() => harToEvidence(har([], "2.0"), opts)).toThrow(DocumentError);
    try {
      harToEvidence(har([], "2.0"), opts);
    } catch (e) {
      expect((e as DocumentError).issues.map((i) => i.message)).toEqual([
        'rec.har: log.version is "2.0"; apptwin reads HAR 1.2 (and 1.1)',
        "rec.har: log.entries is empty; record some traffic first",
      ]);
    }
  });

  it("never quotes a log.version that is no version number (it may be anything, a secret too)", () => {
    const secret = "Hx7 k/q+r&Tz9!";
    try {
      harToEvidence(har([], secret), opts);
      expect.unreachable();
    } catch (e) {
      const messages = (e as DocumentError).issues.map((i) => i.message);
      expect(messages[0]).toBe(
        "rec.har: log.version is a text that is no version number (14 characters); apptwin reads HAR 1.2 (and 1.1)",
      );
      expect(messages.join("\n")).not.toContain(secret);
    }
  });

  it("names a document that is not a HAR at all", () => {
    expect(() => harToEvidence({ foo: 1 }, opts)).toThrow("rec.har: log must be of type object");
  });
});

describe("harToEvidence: form fields given only as postData.params", () => {
  it("redacts a credential-named param although the form was multipart and the HAR kept no text", () => {
    const login = entry("http://a.test/login", "text/html", {
      request: {
        method: "POST",
        url: "http://a.test/login",
        headers: [{ name: "Content-Type", value: "multipart/form-data; boundary=----X" }],
        postData: {
          mimeType: "multipart/form-data; boundary=----X",
          params: [
            { name: "email", value: "a@example.test" },
            { name: "password", value: "correct horse battery" },
          ],
        },
      },
    });
    const e = harToEvidence(har([login]), opts);
    expect(JSON.stringify(e)).not.toContain("correct horse");
    expect(e.records[0]!.request.body).toMatchObject({
      text: "email=a%40example.test&password=[REDACTED:field:password]",
      mime_type: "application/x-www-form-urlencoded",
    });
  });
});

describe("HAR import: hostile documents", () => {
  const issuesOf = (run: () => unknown) => {
    try {
      run();
    } catch (e) {
      expect(e).toBeInstanceOf(DocumentError);
      return (e as DocumentError).issues.map((i) => i.message);
    }
    return expect.unreachable("the HAR was accepted");
  };

  it("refuses a method that is not an RFC 9110 token (it would become a tool name and a route)", () => {
    const bad = entry("http://a.test/api", "application/json", {
      request: { method: "GET\r\nX: y", url: "http://a.test/api", headers: [] },
    });
    expect(
      issuesOf(() =>
        harToEvidence(har([bad, { ...bad, request: { ...bad.request, method: "GE T" } }]), opts),
      ),
    ).toEqual([
      "rec.har: log.entries[0].request.method must be an HTTP method token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~, such as GET or POST)",
      "rec.har: log.entries[1].request.method must be an HTTP method token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~, such as GET or POST)",
    ]);
  });

  it("refuses CR or LF in a header name or value; a Set-Cookie may hold one cookie a line", () => {
    const bad = entry("http://a.test/api", "application/json", {
      request: {
        method: "GET",
        url: "http://a.test/api",
        headers: [
          { name: "X-A\nX-B", value: "1" },
          { name: ":authority", value: "a.test" },
        ],
      },
      response: {
        status: 200,
        headers: [
          { name: "Content-Type", value: "application/json\r\nX-Injected: 1" },
          { name: "Set-Cookie", value: "a=1; Path=/\nb=2; Path=/" },
        ],
      },
    });
    expect(issuesOf(() => harToEvidence(har([bad]), opts))).toEqual([
      "rec.har: log.entries[0].request.headers[0].name must not hold a carriage return, line feed or NUL (a header name is one token)",
      "rec.har: log.entries[0].response.headers[0].value must not hold a carriage return, line feed or NUL (only a Set-Cookie's value may hold line feeds, one cookie a line)",
    ]);
  });

  it("refuses a key written twice, with the schema's issues, all at once", () => {
    const text = JSON.stringify(har([entry("http://a.test/api", "application/json")]))
      .replace('"method":"GET"', '"method":"GET","method":"DELETE"')
      .replace('"version":"1.2"', '"version":"9"');
    expect(issuesOf(() => harTextToEvidence(text, opts))).toEqual([
      'rec.har: log.entries[0].request has the key "method" twice; JSON keeps only the last, so remove one',
      'rec.har: log.version is "9"; apptwin reads HAR 1.2 (and 1.1)',
    ]);
  });

  it("refuses a request URL no browser sent over the network (javascript:, data:), naming the entry and the field, never the URL", () => {
    const js = entry("javascript:alert(document.cookie)", "text/html");
    const data = entry("data:text/html,<b>x</b>", "text/html");
    const ok = entry("http://a.test/api", "application/json");
    expect(issuesOf(() => harToEvidence(har([ok, js, data]), opts))).toEqual([
      "rec.har: log.entries[1].request.url must be an http:, https:, ws: or wss: URL, not a javascript: URL (no request was sent over the network for it)",
      "rec.har: log.entries[2].request.url must be an http:, https:, ws: or wss: URL, not a data: URL (no request was sent over the network for it)",
    ]);
  });

  it("refuses a body declared base64 whose text is not base64, naming the entry and the field", () => {
    const answer = entry("http://a.test/api", "application/json", {
      response: {
        status: 200,
        statusText: "OK",
        headers: [],
        content: { size: 2, mimeType: "application/json", text: "not base64!", encoding: "base64" },
      },
    });
    const sent = entry("http://a.test/api", "application/json", {
      request: {
        method: "POST",
        url: "http://a.test/api",
        headers: [],
        postData: { mimeType: "application/json", text: "%%%", encoding: "base64" },
      },
    });
    const fine = entry("http://a.test/api", "application/json", {
      response: {
        status: 200,
        statusText: "OK",
        headers: [],
        content: { size: 2, mimeType: "application/json", text: "e30=\r\n", encoding: "base64" },
      },
    });
    expect(issuesOf(() => harToEvidence(har([fine, answer, sent]), opts))).toEqual([
      "rec.har: log.entries[1].response.content.text is not valid base64, though encoding is base64 (letters, digits, + and / only, = as padding)",
      "rec.har: log.entries[2].request.postData.text is not valid base64, though encoding is base64 (letters, digits, + and / only, = as padding)",
    ]);
  });
});
