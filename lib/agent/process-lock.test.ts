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
function start(dataDir: string) {
  const child = spawn(TSX, [SCRIPT], { env: { ...process.env, DATA_DIR: dataDir, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" }, stdio: ["ignore", "pipe", "inherit"], detached: true });
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
      await new Promise((r) => setTimeout(r, 200)); // the group's last process is gone
      expect(fs.existsSync(path.join(dir, "threadline.sqlite.lock"))).toBe(true);
      const third = start(dir);
      expect(await third.line).toBe("opened");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("one Threadline process per Postgres database", () => {
  it("a second holder of the advisory lock is refused with the same message; the lock goes with its connection", async () => {
    const { lockPostgres } = await import("./process-lock");
    const url = process.env.TEST_DATABASE_URL!;
    const release = await lockPostgres(url);
    await expect(lockPostgres(url)).rejects.toThrow(/Postgres database "[^"]+" is already served by another Threadline process .*LangGraph server/);
    await release();
    const again = await lockPostgres(url);
    await again();
  });
});
