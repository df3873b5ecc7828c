import { describe, expect, it } from "vitest";
import { signInFor } from "./confinement-route.js";

const signIn = { origin: "http://127.0.0.1:8080", authorization: "Basic YWRtaW46cHc=" };

describe("signInFor", () => {
  it("signs in a request to the sign-in's origin that carries no Authorization", () => {
    expect(signInFor(signIn, "http://127.0.0.1:8080/basic/api?x=1", {})).toBe(signIn.authorization);
  });

  it("never sends the sign-in to another origin: another port, host or scheme", () => {
    for (const url of ["http://127.0.0.1:8081/", "http://localhost:8080/", "https://127.0.0.1:8080/"])
      expect(signInFor(signIn, url, {})).toBeNull();
  });

  it("keeps an Authorization the request already carries (a bearer token, a step's own)", () => {
    expect(signInFor(signIn, "http://127.0.0.1:8080/", { authorization: "Bearer t" })).toBeNull();
  });

  it("sends nothing without a sign-in, or to an address that is no URL", () => {
    expect(signInFor(null, "http://127.0.0.1:8080/", {})).toBeNull();
    expect(signInFor(signIn, "not a url", {})).toBeNull();
  });
});
