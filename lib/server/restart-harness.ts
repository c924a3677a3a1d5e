import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHarness, dropTestDatabase, type Harness, type HarnessOptions } from "./test-harness";

/**
 * Restart tests: successive servers over one data folder (and, in the Postgres pass, one
 * database). `start()` opens the next server, `stop()` closes the newest, `cleanup()` (for
 * afterEach) closes whatever is still open and removes the folder (and its database), so the next
 * test starts fresh.
 */
export function restarts(prefix = "threadline-restart-") {
  const open: Harness[] = [];
  let dir: string | null = null;
  return {
    start(opts: Omit<HarnessOptions, "dir"> = {}): Harness {
      dir ??= fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      const h = createHarness({ ...opts, dir });
      open.push(h);
      return h;
    },
    async stop(): Promise<void> {
      await open.pop()?.close();
    },
    async cleanup(): Promise<void> {
      while (open.length) await open.pop()!.close();
      if (dir) {
        fs.rmSync(dir, { recursive: true, force: true });
        dropTestDatabase(dir);
      }
      dir = null;
    },
  };
}

/** The title the sidebar's list request shows for one thread (the registry's copy, not the checkpoint). */
export async function listedTitle(h: Harness, threadId: string): Promise<string | null> {
  const rows = await h.client.threads.search({ ids: [threadId], select: ["thread_id"], extract: { title: "values.title" } } as never);
  return (rows[0] as unknown as { extracted?: { title?: string | null } })?.extracted?.title ?? null;
}
