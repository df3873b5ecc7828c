import { describe, expect, it } from "vitest";
import { ARIA_ROLES } from "./aria-roles.js";
import { checkTarget, parseTarget } from "./parse-target.js";

describe("parseTarget", () => {
  it("reads each kind of target", () => {
    expect(parseTarget("testid=new-item")).toEqual({ kind: "testid", value: "new-item" });
    expect(parseTarget("text=Sign in")).toEqual({ kind: "text", value: "Sign in" });
    expect(parseTarget("label=Email")).toEqual({ kind: "label", value: "Email" });
    expect(parseTarget("css=form > button.primary")).toEqual({ kind: "css", value: "form > button.primary" });
    expect(parseTarget("role=list")).toEqual({ kind: "role", value: "list", role: "list" });
  });

  it("reads a role's accessible name, unescaping quotes and backslashes", () => {
    expect(parseTarget('role=button[name="Sign in"]')).toEqual({
      kind: "role",
      value: 'button[name="Sign in"]',
      role: "button",
      name: "Sign in",
    });
    expect(parseTarget('role=checkbox[name="Say \\"hi\\" \\\\ bye"]').name).toBe('Say "hi" \\ bye');
  });

  it("refuses a misspelt role with the ARIA message", () => {
    expect(checkTarget('role=buton[name="Sign in"]')).toEqual({
      problem: {
        code: "invalid_role",
        text: 'names the role "buton", which is not an ARIA role (e.g. button, link, textbox)',
      },
    });
  });

  it("refuses abstract roles and accepts DPUB and graphics roles", () => {
    expect(ARIA_ROLES.has("widget")).toBe(false);
    expect(ARIA_ROLES.has("command")).toBe(false);
    expect(ARIA_ROLES.has("doc-chapter")).toBe(true);
    expect(ARIA_ROLES.has("graphics-symbol")).toBe(true);
    expect("problem" in checkTarget("role=widget")).toBe(true);
  });

  it("refuses a target outside the grammar, naming what would be valid", () => {
    expect(checkTarget("#submit")).toEqual({
      problem: {
        code: "invalid_target",
        text: 'must be testid=…, text=…, label=…, role=<role>[name="…"] or css=… (got "#submit")',
      },
    });
    expect(checkTarget("label=  ")).toEqual({
      problem: { code: "invalid_target", text: 'has nothing after "label=" (got "label=  ")' },
    });
    expect(checkTarget("role=button[name=Sign in]")).toEqual({
      problem: {
        code: "invalid_target",
        text: 'must be role=<role> or role=<role>[name="…"] (got "role=button[name=Sign in]")',
      },
    });
  });

  it("throws on an invalid target (capture calls it on validated scenarios only)", () => {
    expect(() => parseTarget("xpath=//a")).toThrow(/^target must be testid=…/);
  });
});
