import type { Client } from "@langchain/langgraph-sdk";

/**
 * Test-only: starts a streamed run and returns once its first `values` event with a title has
 * arrived, so what the test does next races a run that is really going. `finish()` reads the
 * stream to its end.
 */
export async function streamUntilTitled(client: Client, threadId: string, text: string): Promise<{ finish(): Promise<void> }> {
  const stream = client.runs.stream(threadId, "agent", { input: { messages: [{ type: "human", content: text }] }, streamMode: ["values"] });
  const it = stream[Symbol.asyncIterator]();
  for (;;) {
    const { value, done } = await it.next();
    if (done) throw new Error("the run ended before any event carried a title");
    if ((value?.data as { title?: string } | undefined)?.title) break;
  }
  return {
    async finish() {
      while (!(await it.next()).done);
    },
  };
}
