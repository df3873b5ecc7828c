/**
 * `apptwin validate` run for real (node bin/run.js, the compiled dist/): each
 * bad fixture prints its exact message and exits 2, good ones exit 0, a
 * directory lists what it skipped and why, `--json` has the documented shape.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const bin = join(root, "bin", "run.js");
const fixtures = join(root, "test", "fixtures", "scenarios");
const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, "validate", ...args], { encoding: "utf8", cwd: root });

const DECLARE = 'declare a secret in "secrets" and reference it as { "secret": "<id>" }';
/** One mistake per file, and the one message each must print. */
const EXPECTED: Record<string, string> = {
  "inline-otp-field.json": `inline-otp-field.json: steps[1].json.otp is a literal value under the credential-named key "otp"; ${DECLARE}`,
  "inline-pwd-field.json": `inline-pwd-field.json: steps[1].json.pwd is a literal value under the credential-named key "pwd"; ${DECLARE}`,
  "inline-session-header.json": `inline-session-header.json: steps[3].headers.x-session-id is a literal value for the credential-named header "x-session-id"; ${DECLARE}`,
  "inline-sid-query.json": `inline-sid-query.json: steps[3].query[0].value is a literal value for the credential-named query field "sid"; ${DECLARE}`,
  "bearer-literal.json": `bearer-literal.json: steps[6].headers.authorization holds an inline credential (a "Bearer …" value); ${DECLARE}`,
  "crlf-in-header-value.json":
    "crlf-in-header-value.json: steps[6].headers.x-note holds a CR, LF or NUL character; a header value is one line",
  "duplicate-step-id.json":
    'duplicate-step-id.json: steps[4].step_id "submit" is already the step_id of steps[3]; every step_id must be unique',
  "first-step-not-navigate.json":
    'first-step-not-navigate.json: steps[0].action is "fill", but the first step must be a navigate (e.g. { "step_id": "open", "action": "navigate", "path": "/" })',
  "inline-password.json": `inline-password.json: steps[2].value is a literal value for the credential-named target "label=Password"; ${DECLARE}`,
  "misspelt-role.json":
    'misspelt-role.json: steps[3].target names the role "buton", which is not an ARIA role (e.g. button, link, textbox)',
  "nested-quantifier-pattern.json":
    'nested-quantifier-pattern.json: steps[4].pattern can backtrack for a very long time: the group "(/?\\w+)", repeated by "*", holds a quantifier of its own (nested quantifiers); use one quantifier per repeated part, e.g. "a+" for "(a+)+" or "\\w*x" for "(\\w+)*x"',
  "path-to-other-origin.json":
    'path-to-other-origin.json: steps[6].path resolves to http://evil.example, not the start origin http://127.0.0.1:4010; a step only reaches the start origin (got "//evil.example/api/items")',
  "query-in-path.json":
    'query-in-path.json: steps[6].path must not hold "?" or "#"; put query parameters in "query": [{ "name": …, "value": … }] (got "/api/items?done=true")',
  "redirect-status.json":
    "redirect-status.json: steps[5].expected_status[1] is 302, which can never match: request steps do not follow redirects (expect the status the server answers, or leave expected_status out to accept any 2xx)",
  "repeated-header.json":
    'repeated-header.json: steps[6].headers.accept repeats the header "Accept" (header names are case-insensitive); keep one',
  "step-id-case.json":
    'step-id-case.json: steps[2].step_id "Email" is already the step_id of steps[1]; every step_id must be unique',
  "undeclared-secret.json":
    'undeclared-secret.json: steps[2].value.secret references the secret "pasword", which is not declared (declared: password); add { "id": "pasword", "env": "<ENV_VAR>" } to "secrets"',
  "unknown-field.json":
    'unknown-field.json: steps[3] has an unknown field "tagret" (valid fields for a click step: step_id, action, target, timeout_ms, description); did you mean "target"?',
  "user-agent-header.json":
    "user-agent-header.json: steps[6].headers.User-Agent cannot be set: a request step sends the browser's own User-Agent; remove it",
  "cookie-matching-risky.json":
    'cookie-matching-risky.json: steps[2].headers.x-xsrf.cookie_matching can backtrack for a very long time: the group "(XSRF-\\w+)", repeated by "+", holds a quantifier of its own (nested quantifiers); use one quantifier per repeated part, e.g. "a+" for "(a+)+" or "\\w*x" for "(\\w+)*x"',
  "header-placeholder-unknown-group.json":
    'header-placeholder-unknown-group.json: steps[2].headers["X-CSRF-Token-{install}"] has the placeholder {install} in its name, which names no group of its cookie_matching regex (named groups: id); capture it as (?<install>…)',
  "header-placeholder-without-cookie-matching.json":
    'header-placeholder-without-cookie-matching.json: steps[2].headers["X-CSRF-Token-{install}"] has a {install} placeholder in its name, which only a { "cookie_matching": regex } value can fill (from the regex\'s named groups, e.g. "^CSRF-Token-(?<install>.+)$")',
  "http-credentials-literal-password.json":
    'http-credentials-literal-password.json: http_credentials.password must be { "secret": "<id>" }: a password is never written in a scenario (got a string)',
  "json-value-bad-reference.json":
    'json-value-bad-reference.json: steps[2].json.owner.$value has an unknown field "default" (valid fields: response, pointer, prefix)',
  "json-value-beside-keys.json":
    'json-value-beside-keys.json: steps[2].json.owner holds "$value" beside other keys (name); an object { "$value": <reference> } stands for one value and holds nothing else',
  "param-without-placeholder.json":
    'param-without-placeholder.json: steps[3].params.item is not used: the path holds no {item} placeholder (got "/api/items/{id}")',
  "path-placeholder-without-param.json":
    'path-placeholder-without-param.json: steps[3].path holds the placeholder {list}, which "params" does not define; add "params": { "list": <value> }',
  "path-stray-brace.json":
    'path-stray-brace.json: steps[3].path holds a "{" or "}" that is not a {name} placeholder (a name is letters, digits and _, not starting with a digit); percent-encode a literal brace as %7B or %7D (got "/api/items/{id}/{1")',
  "response-bad-pointer.json":
    'response-bad-pointer.json: steps[3].params.id.pointer must be an RFC 6901 JSON pointer such as "/token" or "" for the whole value (got "id")',
  "response-later-step.json":
    'response-later-step.json: steps[2].json.after.$value.response names the step "read", which comes later (steps[3]); a value can only come from an earlier request step (request steps before this one: login)',
  "response-not-request-step.json":
    'response-not-request-step.json: steps[3].params.id.response names the step "open", a navigate step; only the answer of a request step can be read (request steps before this one: login, create)',
  "response-set-cookie-header.json":
    'response-set-cookie-header.json: steps[3].headers.x-session.header names "Set-Cookie", which fetch never shows a page; read the cookie with { "cookie": name } or { "cookie_matching": regex } instead',
  "response-unknown-step.json":
    'response-unknown-step.json: steps[3].params.id.response names the step "creat", which does not exist (request steps before this one: login, create)',
};

const temp = mkdtempSync(join(tmpdir(), "apptwin-validate-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("apptwin validate", () => {
  it("prints the exact message of every bad fixture, one per file, and exits 2 (--json)", () => {
    const r = run("test/fixtures/scenarios/bad", "--json");
    expect(r.status).toBe(2);
    const report = JSON.parse(r.stdout) as {
      valid: boolean;
      files: { file: string; valid: boolean; issues: { code: string; path: string; message: string }[] }[];
      skipped: unknown[];
    };
    expect(report.valid).toBe(false);
    expect(report.skipped).toEqual([]);
    expect(report.files.map((f) => f.file)).toEqual(
      Object.keys(EXPECTED)
        .sort()
        .map((n) => join("test/fixtures/scenarios/bad", n)),
    );
    for (const f of report.files) {
      const name = f.file.split("/").pop()!;
      expect(f.valid, name).toBe(false);
      expect(
        f.issues.map((i) => i.message),
        name,
      ).toEqual([EXPECTED[name]]);
    }
    expect(report.files[0]!.issues[0]).toEqual({
      code: "inline_credential",
      path: "steps[6].headers.authorization",
      message: EXPECTED["bearer-literal.json"],
    });
  });

  it("prints each error of a single bad file for people, and exits 2", () => {
    const r = run("test/fixtures/scenarios/bad/misspelt-role.json");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe(
      `✗ test/fixtures/scenarios/bad/misspelt-role.json\n  - ${EXPECTED["misspelt-role.json"]}\n1 file: 1 invalid, 1 problem\n`,
    );
  });

  it("exits 0 on the good fixtures and the items example", () => {
    const r = run("test/fixtures/scenarios/good");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      "✓ test/fixtures/scenarios/good/chained-values.json\n✓ test/fixtures/scenarios/good/contract-example.json\n✓ test/fixtures/scenarios/good/every-action.json\n3 files valid\n",
    );
    const e = run("examples/items.scenario.json", "--json");
    expect(e.status).toBe(0);
    expect(JSON.parse(e.stdout)).toEqual({
      valid: true,
      files: [{ file: "examples/items.scenario.json", valid: true, issues: [] }],
      skipped: [],
    });
  });

  it("reads a directory in name order and lists every skipped entry with its reason", () => {
    const dir = join(temp, "scenarios");
    mkdirSync(join(dir, "nested"), { recursive: true });
    copyFileSync(join(fixtures, "good", "every-action.json"), join(dir, "b.json"));
    copyFileSync(join(fixtures, "bad", "misspelt-role.json"), join(dir, "a.json"));
    writeFileSync(join(dir, "notes.txt"), "not a scenario\n");
    writeFileSync(join(temp, "outside.json"), "{}\n");
    symlinkSync(join(temp, "outside.json"), join(dir, "c-outside.json"));
    symlinkSync(join(dir, "b.json"), join(dir, "d-inside.json"));
    symlinkSync(join(dir, "missing.json"), join(dir, "e-broken.json"));
    const r = run(dir);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe(
      [
        `✗ ${dir}/a.json`,
        `  - a.json: steps[3].target names the role "buton", which is not an ARIA role (e.g. button, link, textbox)`,
        `✓ ${dir}/b.json`,
        `✓ ${dir}/d-inside.json`,
        `- skipped c-outside.json: a symbolic link leading outside the directory (to ${join(temp, "outside.json")})`,
        "- skipped e-broken.json: a broken symbolic link",
        "- skipped nested: a directory (subdirectories are not read)",
        "- skipped notes.txt: not a .json file",
        "3 files: 1 invalid, 1 problem",
        "",
      ].join("\n"),
    );
    const j = JSON.parse(run(dir, "--json").stdout) as { skipped: { name: string; reason: string }[] };
    expect(j.skipped.map((s) => s.name)).toEqual(["c-outside.json", "e-broken.json", "nested", "notes.txt"]);
  });

  it("skips a link to a FIFO instead of waiting forever to read it", () => {
    const dir = join(temp, "fifo");
    mkdirSync(dir);
    copyFileSync(join(fixtures, "good", "every-action.json"), join(dir, "a.json"));
    spawnSync("mkfifo", [join(dir, "pipe")]);
    symlinkSync(join(dir, "pipe"), join(dir, "b-pipe.json"));
    const r = spawnSync(process.execPath, [bin, "validate", dir], {
      encoding: "utf8",
      cwd: root,
      timeout: 20_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        `✓ ${dir}/a.json`,
        "- skipped b-pipe.json: a link to something that is not a regular file",
        "- skipped pipe: not a regular file",
        "1 file valid",
        "",
      ].join("\n"),
    );
  });

  it("names a missing path in a clean error, exit 2, in both modes", () => {
    const missing = join(temp, "nope.json");
    const r = run(missing);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `Error: ${missing}: no such file or directory; give a scenario .json file or a directory of them\n`,
    );
    const j = run(missing, "--json");
    expect(j.status).toBe(2);
    expect(JSON.parse(j.stdout)).toEqual({
      error: {
        code: "file_not_found",
        message: `${missing}: no such file or directory; give a scenario .json file or a directory of them`,
        suggestions: [],
      },
    });
  });

  it("refuses a directory with no scenario file in it, listing what it skipped", () => {
    const empty = join(temp, "empty-dir");
    mkdirSync(join(empty, "sub"), { recursive: true });
    writeFileSync(join(empty, "notes.txt"), "x");
    const r = run(empty);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `Error: ${empty}: holds no .json scenario file to validate (skipped notes.txt: not a .json file; sub: a directory (subdirectories are not read))\n`,
    );
  });

  it("refuses a path that is not a regular file (a device, a FIFO) without reading it", () => {
    const pipe = join(temp, "given.pipe");
    spawnSync("mkfifo", [pipe]);
    for (const path of ["/dev/zero", pipe]) {
      const r = spawnSync(process.execPath, [bin, "validate", path], {
        encoding: "utf8",
        cwd: root,
        timeout: 20_000,
      });
      expect(r.status, path).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `Error: ${path}: not a regular file; give a scenario .json file or a directory of them\n`,
      );
    }
  });

  it("refuses a scenario file larger than 4 MiB by its size, before reading it", () => {
    const big = join(temp, "big.json");
    // Sparse: 2 GiB on paper, nothing on disk; reading it whole would exhaust memory.
    spawnSync("truncate", ["-s", "2G", big]);
    const r = spawnSync(process.execPath, [bin, "validate", big], {
      encoding: "utf8",
      cwd: root,
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `Error: ${big}: the scenario is 2147483648 bytes, more than a scenario file may hold (4 MiB, 4194304 bytes); a scenario is a short script, so split it into several files\n`,
    );
    rmSync(big);
  });

  it("lists a file of a directory it cannot read, or too large, as one bad file and reads the rest", () => {
    // Run as "nobody" when the tests run as root, so a file with mode 000 really cannot be read.
    const asUser =
      process.getuid?.() === 0
        ? {
            uid: 65534,
            gid: 65534,
            env: { ...process.env, HOME: temp, XDG_DATA_HOME: temp, XDG_CONFIG_HOME: temp },
          }
        : {};
    const dir = join(temp, "unreadable");
    mkdirSync(dir);
    chmodSync(temp, 0o755);
    copyFileSync(join(fixtures, "good", "every-action.json"), join(dir, "a.json"));
    writeFileSync(join(dir, "b-locked.json"), "{}\n");
    chmodSync(join(dir, "b-locked.json"), 0o000);
    spawnSync("truncate", ["-s", "4194305", join(dir, "c-big.json")]);
    copyFileSync(join(fixtures, "good", "contract-example.json"), join(dir, "d.json"));
    const r = spawnSync(process.execPath, [bin, "validate", dir, "--json"], {
      encoding: "utf8",
      cwd: root,
      timeout: 20_000,
      ...asUser,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: false,
      files: [
        { file: join(dir, "a.json"), valid: true, issues: [] },
        {
          file: join(dir, "b-locked.json"),
          valid: false,
          issues: [
            {
              code: "file_unreadable",
              path: "",
              message: "b-locked.json: the scenario cannot be read (EACCES: permission denied)",
            },
          ],
        },
        {
          file: join(dir, "c-big.json"),
          valid: false,
          issues: [
            {
              code: "file_too_big",
              path: "",
              message:
                "c-big.json: the scenario is 4194305 bytes, more than a scenario file may hold (4 MiB, 4194304 bytes); a scenario is a short script, so split it into several files",
            },
          ],
        },
        { file: join(dir, "d.json"), valid: true, issues: [] },
      ],
      skipped: [],
    });
  });

  it("reports JSON syntax errors as a problem of that file", () => {
    const file = join(temp, "broken.json");
    writeFileSync(file, '{ "schema_version": 1, }');
    const r = run(file, "--json");
    expect(r.status).toBe(2);
    const issue = (JSON.parse(r.stdout) as { files: { issues: { code: string; message: string }[] }[] })
      .files[0]!.issues[0]!;
    expect(issue.code).toBe("invalid_json");
    expect(issue.message).toMatch(/^broken\.json: the scenario is not valid JSON( at line 1, column \d+)?: /);
  });
});
