import { describe, expect, it } from "vitest";
import { accountKey, FailedSignIns } from "./sign-in-limit";

/** A counter on a clock the test moves. */
function counter(max = 3, windowSeconds = 60) {
  const clock = { t: 1_000_000 };
  return { clock, c: new FailedSignIns({ max, windowSeconds }, () => clock.t) };
}

describe("failed sign-ins per account", () => {
  it("allows max attempts in the window, then says how long to wait; the window slides", () => {
    const { clock, c } = counter(3, 60);
    expect(c.begin("ana")).toBeNull(); // t=0
    clock.t += 20_000;
    expect(c.begin("ana")).toBeNull(); // t=20
    clock.t += 20_000;
    expect(c.begin("ana")).toBeNull(); // t=40
    expect(c.begin("ana")).toBe(20); // the first attempt leaves the window at t=60
    expect(c.retryAfter("ben")).toBeNull(); // another account is not affected
    clock.t += 19_000;
    expect(c.begin("ana")).toBe(1);
    clock.t += 1_000; // t=60: the first attempt is out, one may go
    expect(c.begin("ana")).toBeNull();
    expect(c.begin("ana")).toBe(20); // now the t=20 attempt is the oldest
  });

  it("refused attempts are not counted, so waiting out the window always works", () => {
    const { clock, c } = counter(2, 60);
    c.begin("ana");
    c.begin("ana");
    for (let i = 0; i < 50; i++) expect(c.begin("ana")).not.toBeNull();
    clock.t += 60_000;
    expect(c.begin("ana")).toBeNull();
  });

  it("a success forgets the account's failures; an attempt given back does not count", () => {
    const { c } = counter(2, 60);
    c.begin("ana");
    c.begin("ana");
    expect(c.retryAfter("ana")).not.toBeNull();
    c.succeeded("ana");
    expect(c.retryAfter("ana")).toBeNull();
    c.begin("ana");
    c.begin("ana");
    c.giveBack("ana");
    expect(c.begin("ana")).toBeNull();
    expect(c.begin("ana")).not.toBeNull();
  });

  it("keys on the email as better-auth looks it up (case and surrounding blanks do not make a new bucket)", () => {
    expect(accountKey("  Ana@Example.COM ")).toBe("ana@example.com");
    expect(accountKey("")).toBeNull();
    expect(accountKey(42)).toBeNull();
    expect(accountKey(undefined)).toBeNull();
  });
});
