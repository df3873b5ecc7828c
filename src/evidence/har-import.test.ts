import { describe, expect, it } from "vitest";
import { DocumentError } from "../errors/user-error.js";
import { appOriginOf, HAR_LIMITATION, harToEvidence, resourceTypeOf } from "./har-import.js";
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
