import { p50, p95 } from "../lib/stats.mjs";

/**
 * Workloads 4 and 5 on a server whose chat model is the scripted loopback model (fixed delay
 * before its first token): send → the first `values` event carrying a title, send → the first
 * answer token, and how many model requests each conversation made (counted at the model server).
 */
export async function runTitleTiming(target, llm, { iterations, instant }, rec) {
  const errors = [];
  const titleMs = [];
  const tokenMs = [];
  const calls = [];
  for (let i = 0; i < iterations; i++) {
    const marker = `m${instant ? "i" : "d"}${i}x${Date.now().toString(36)}`;
    const { thread_id } = await target.client.threads.create();
    const t0 = performance.now();
    let title;
    let token;
    try {
      const stream = target.client.runs.stream(thread_id, "agent", {
        input: { messages: [{ role: "human", content: `Plan a weekend in Lisbon ${marker}` }] },
        streamMode: ["values", "messages-tuple"],
      });
      for await (const part of stream) {
        if (part.event === "error") errors.push(`run error: ${JSON.stringify(part.data).slice(0, 200)}`);
        if (part.event === "values" && title === undefined && part.data?.title) title = performance.now() - t0;
        if (part.event === "messages" && token === undefined) {
          const [msg] = part.data;
          if (msg?.type?.startsWith("ai") && typeof msg.content === "string" && msg.content) token = performance.now() - t0;
        }
      }
    } catch (err) {
      errors.push(`stream failed: ${err.message}`);
    }
    if (title === undefined) errors.push(`conversation ${i}: no values event carried a title`);
    if (token === undefined) errors.push(`conversation ${i}: no answer token`);
    titleMs.push(title ?? NaN);
    tokenMs.push(token ?? NaN);
    calls.push(llm.callsFor(marker));
  }
  const tag = instant ? "on" : "off";
  rec.value(`title.${tag}.p50`, target, p50(titleMs.filter(Number.isFinite)), `p95 ${p95(titleMs.filter(Number.isFinite)).toFixed(0)} ms`);
  rec.value(`token.${tag}.p50`, target, p50(tokenMs.filter(Number.isFinite)), `p95 ${p95(tokenMs.filter(Number.isFinite)).toFixed(0)} ms`);
  // Counted with the instant title on and off: either way the fallback title makes no model call.
  const lo = Math.min(...calls);
  const hi = Math.max(...calls);
  rec.value(`calls.${tag}`, target, hi, `min ${lo}, max ${hi} over ${calls.length} conversations (${calls.reduce((a, b) => a + b, 0)} requests counted)`);
  return { errors };
}
