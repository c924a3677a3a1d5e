import { describe, expect, it } from "vitest";
import { HTTPException } from "@langchain/langgraph-sdk/auth";
import {
  FORWARDED_IDENTITY_HEADER,
  forwardSecretFromEnv,
  forwardedUserOf,
  mintForwardedIdentity,
  verifyForwardedIdentity,
} from "./forwarded-identity";
import { identify } from "./identity";

const SECRET = "s".repeat(32) + "-forward-secret";
const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);

const withHeader = (token: string) => new Request("http://x/threads", { headers: { [FORWARDED_IDENTITY_HEADER]: token } });

describe("forwarded identity tokens", () => {
  it("a fresh token names its user", () => {
    const token = mintForwardedIdentity({ identity: "user-a", display_name: "Ana" }, SECRET, NOW);
    expect(verifyForwardedIdentity(token, SECRET, NOW + 1000)).toEqual({ ok: true, who: { identity: "user-a", display_name: "Ana" } });
  });

  it("an expired token is refused (the expiry second itself included)", () => {
    const token = mintForwardedIdentity({ identity: "user-a" }, SECRET, NOW, 60);
    expect(verifyForwardedIdentity(token, SECRET, NOW + 59_000).ok).toBe(true);
    expect(verifyForwardedIdentity(token, SECRET, NOW + 60_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("a token signed with another secret is refused", () => {
    const token = mintForwardedIdentity({ identity: "user-a" }, "o".repeat(40), NOW);
    expect(verifyForwardedIdentity(token, SECRET, NOW)).toEqual({ ok: false, reason: "bad-signature" });
  });

  it("changing the claims (another user, a later expiry) breaks the signature", () => {
    const [v, payload, sig] = mintForwardedIdentity({ identity: "user-a" }, SECRET, NOW).split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    for (const forged of [{ ...claims, sub: "user-b" }, { ...claims, exp: claims.exp + 3600 }]) {
      const token = [v, Buffer.from(JSON.stringify(forged)).toString("base64url"), sig].join(".");
      expect(verifyForwardedIdentity(token, SECRET, NOW)).toEqual({ ok: false, reason: "bad-signature" });
    }
    // A flipped signature byte, a truncated signature, garbage.
    const flipped = Buffer.from(sig, "base64url");
    flipped[0] ^= 1;
    expect(verifyForwardedIdentity([v, payload, flipped.toString("base64url")].join("."), SECRET, NOW).ok).toBe(false);
    expect(verifyForwardedIdentity([v, payload, sig.slice(0, 10)].join("."), SECRET, NOW).ok).toBe(false);
    expect(verifyForwardedIdentity("not-a-token", SECRET, NOW)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyForwardedIdentity(`v2.${payload}.${sig}`, SECRET, NOW)).toEqual({ ok: false, reason: "malformed" });
  });

  it("the secret must be long enough; unset means none", () => {
    expect(forwardSecretFromEnv({})).toBeNull();
    expect(() => forwardSecretFromEnv({ THREADLINE_FORWARD_SECRET: "short" })).toThrow(/at least 32/);
    expect(forwardSecretFromEnv({ THREADLINE_FORWARD_SECRET: SECRET })).toBe(SECRET);
  });

  it("identify (accounts) takes a valid header as the user and answers 401 to a bad one, never falling back", async () => {
    const good = mintForwardedIdentity({ identity: "user-a" }, SECRET);
    expect(forwardedUserOf(withHeader(good), SECRET)).toEqual({ identity: "user-a", permissions: [] });
    expect(forwardedUserOf(new Request("http://x/"), SECRET)).toBeNull();
    const status = (fn: () => unknown) => {
      try {
        fn();
        return 0;
      } catch (err) {
        return err instanceof HTTPException ? err.status : -1;
      }
    };
    expect(status(() => forwardedUserOf(withHeader(good.slice(0, -2)), SECRET))).toBe(401);
    // Where no secret is set, a forwarded identity is never trusted.
    expect(status(() => forwardedUserOf(withHeader(good), null))).toBe(401);
    // Through identify: a refused token with a valid-looking API key beside it is still a 401.
    const keys = () => ({ verify: () => ({ userId: "key-user" }) }) as never;
    const prev = process.env.THREADLINE_FORWARD_SECRET;
    process.env.THREADLINE_FORWARD_SECRET = SECRET;
    try {
      expect((await identify(withHeader(good), "accounts", keys)).identity).toBe("user-a");
      const bad = new Request("http://x/", { headers: { [FORWARDED_IDENTITY_HEADER]: "v1.e30.AAAA", "x-api-key": "k" } });
      const refused = await identify(bad, "accounts", keys).then(() => -1, (err) => (err instanceof HTTPException ? err.status : -2));
      expect(refused).toBe(401);
      expect((await identify(new Request("http://x/", { headers: { "x-api-key": "k" } }), "accounts", keys)).identity).toBe("key-user");
    } finally {
      if (prev === undefined) delete process.env.THREADLINE_FORWARD_SECRET;
      else process.env.THREADLINE_FORWARD_SECRET = prev;
    }
  });
});
