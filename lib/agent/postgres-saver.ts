import { randomBytes } from "node:crypto";
import pg from "pg";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

/**
 * PostgresSaver with unique channel versions. PostgresSaver 1.0.5 keeps channel values in
 * `checkpoint_blobs` keyed by (thread, namespace, channel, version) and writes them with ON
 * CONFLICT DO NOTHING, but takes the base saver's versions 1, 2, 3…: a run started from an earlier
 * checkpoint (a branch: `checkpoint` on submit, editing an earlier message) reuses a version the
 * other branch already stored, its new values are dropped, and the thread reads the other
 * branch's messages. Here a version is the next number, zero-padded so versions still sort, plus
 * a random part, so two branches never share one (the Python saver does the same).
 */
export class ThreadlinePostgresSaver extends PostgresSaver {
  static fromUrl(connectionString: string): ThreadlinePostgresSaver {
    return new ThreadlinePostgresSaver(new pg.Pool({ connectionString }));
  }

  getNextVersion(current: string | number | undefined): number {
    const n = current === undefined ? 0 : typeof current === "number" ? current : Number.parseInt(current.split(".")[0], 10) || 0;
    return `${String(n + 1).padStart(32, "0")}.${randomBytes(8).toString("hex")}` as unknown as number;
  }
}
