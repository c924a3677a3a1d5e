import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const TSX = path.resolve("node_modules/.bin/tsx");
const SCRIPT = path.resolve("lib/agent/testdata/open-app.ts");
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) crash(c);
});

/** kill -9 of the whole process group (tsx runs the script in a child of its own). */
const crash = (c: ChildProcess) => {
  try {
    process.kill(-c.pid!, "SIGKILL");
  } catch {
    // already gone
  }
};

/** Starts a process that opens the app's database; resolves with its first line and how it ended, if it did. */
function start(dataDir: string, extraEnv: Record<string, string> = {}) {
  const child = spawn(TSX, [SCRIPT], { env: { ...process.env, DATA_DIR: dataDir, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...extraEnv }, stdio: ["ignore", "pipe", "inherit"], detached: true });
  children.push(child);
  const line = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
    child.on("exit", (code) => (out.includes("\n") ? undefined : reject(new Error(`exited ${code} before saying anything`))));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, line, exited };
}

describe("one Threadline process per SQLite database", () => {
  it("a second process on the same database refuses with a clear message; after the first crashes, a new one starts", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-lock-"));
    try {
      const first = start(dir);
      expect(await first.line).toBe("opened");
      const second = start(dir);
      expect(await second.line).toMatch(/^refused: .*threadline\.sqlite is already served by another Threadline process \(pid \d+.*LangGraph server/);
      expect(await second.exited).toBe(3);
      // A crash leaves the lock file behind; its process is gone, so the next start takes it over.
      crash(first.child);
      await first.exited;
      // SIGKILL has reached the whole group; tsx's node child may linger as a zombie until it is
      // reaped, which the lock counts as gone (it serves nothing).
      await new Promise((r) => setTimeout(r, 200));
      expect(fs.existsSync(path.join(dir, "threadline.sqlite.lock"))).toBe(true);
      const third = start(dir);
      expect(await third.line).toBe("opened");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("one Threadline process per Postgres database (DATABASE_URL)", () => {
  it("a second process on the same database refuses with a clear message; the lock goes with the first process", async () => {
    const env = { DATABASE_URL: process.env.TEST_DATABASE_URL! };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-pglock-"));
    try {
      const first = start(dir, env);
      expect(await first.line).toBe("opened");
      const second = start(dir, env);
      expect(await second.line).toMatch(/^refused: Postgres database "[^"]+" is already served by another Threadline process .*LangGraph server/);
      expect(await second.exited).toBe(3);
      crash(first.child);
      await first.exited;
      // The server ends a dead client's session, and its advisory lock with it.
      let third = start(dir, env);
      for (let i = 0; i < 20 && (await third.line) !== "opened"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        third = start(dir, env);
      }
      expect(await third.line).toBe("opened");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
