import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { authSecret, SECRET_FILE } from "./auth-secret";

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-secret-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("the better-auth secret", () => {
  it("is generated once into DATA_DIR with mode 0600 and reused on the next start", () => {
    const dir = path.join(tempDir(), "data"); // not there yet: created
    const first = authSecret(dir, {});
    const file = path.join(dir, SECRET_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(authSecret(dir, {})).toBe(first);
    expect(fs.readFileSync(file, "utf8")).toBe(first);
  });

  it("differs between two data folders", () => {
    expect(authSecret(tempDir(), {})).not.toBe(authSecret(tempDir(), {}));
  });

  it("BETTER_AUTH_SECRET wins and writes no file; a short one stops the server", () => {
    const dir = tempDir();
    const given = "x".repeat(40);
    expect(authSecret(dir, { BETTER_AUTH_SECRET: given })).toBe(given);
    expect(fs.existsSync(path.join(dir, SECRET_FILE))).toBe(false);
    expect(() => authSecret(dir, { BETTER_AUTH_SECRET: "short" })).toThrow(/at least 32/);
  });

  it("an existing secret file is never overwritten; an empty one is refused with a clear message", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, SECRET_FILE), "k".repeat(48), { mode: 0o600 });
    expect(authSecret(dir, {})).toBe("k".repeat(48));
    fs.writeFileSync(path.join(dir, SECRET_FILE), "");
    expect(() => authSecret(dir, {})).toThrow(/delete it/);
  });
});
