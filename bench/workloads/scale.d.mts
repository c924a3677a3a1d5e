// Types for the part of scale.mjs the TypeScript bench scripts use.
import type { Client } from "@langchain/langgraph-sdk";

/** `n` titled threads with no metadata: the by-hand floor scripts' server. */
export function seedPlainThreads(client: Client, n?: number): Promise<void>;
