import { afterAll, beforeAll, bench, describe } from "vitest";
import { titlerFromEnv } from "@/lib/agent";
import { startLoopbackLLM, type LoopbackLLM } from "@/lib/agent/testing/loopback-llm";
import { ScriptedModel, createHarness, human, type Harness } from "@/lib/server/test-harness";
import { DEFAULT_TITLE_CONFIG } from "@/lib/title";

// Send → first answer token, with no title model and with a title model that takes 1.5 s (a real
// @langchain/openai client against a loopback server). The title call runs beside the answer, so
// the two figures should match; vitest prints them side by side with the ratio.
const SLOW_TITLE_MS = 1500;
let llm: LoopbackLLM;
let plain: Harness;
let titled: Harness;

beforeAll(async () => {
  llm = await startLoopbackLLM();
  llm.script("slow-title", { text: "Bench Title", delayMs: SLOW_TITLE_MS });
  const titler = await titlerFromEnv({ OPENAI_API_KEY: "sk", OPENAI_BASE_URL: llm.openaiBaseURL, TITLE_MODEL: "openai:slow-title" }, DEFAULT_TITLE_CONFIG);
  // Every iteration leaves its run titling in the background; a high run cap keeps later
  // iterations from queueing behind those (the figure is the title call's cost, not the cap's).
  const runLimits = { maxConcurrentRuns: 200 };
  plain = createHarness({ model: new ScriptedModel(["one two three four five six"], 5), runLimits });
  titled = createHarness({ model: new ScriptedModel(["one two three four five six"], 5), titler, runLimits });
});

afterAll(async () => {
  // Let the last runs finish titling before the database closes.
  await new Promise((r) => setTimeout(r, SLOW_TITLE_MS + 500));
  await plain?.close();
  await titled?.close();
  await llm?.close();
});

async function timeToFirstToken(h: Harness) {
  const t = await h.client.threads.create();
  for await (const part of h.client.runs.stream(t.thread_id, "agent", { input: human("Plan a weekend in Lisbon"), streamMode: ["messages-tuple"] })) {
    if (part.event === "messages") return; // the run keeps going (and titles) in the background
  }
}

describe(`send → first answer token (title model taking ${SLOW_TITLE_MS} ms vs none)`, () => {
  bench("no title model (fallback titles)", () => timeToFirstToken(plain), { iterations: 30, time: 0 });
  bench(`title model taking ${SLOW_TITLE_MS} ms`, () => timeToFirstToken(titled), { iterations: 30, time: 0 });
});
