#!/usr/bin/env node
// `npm run bench` (full) / `npm run bench -- --quick` (small, run by `npm test`): the same SDK
// workloads against Threadline and `langgraph dev`, one table, bench/RESULTS.md. Exits 1 when a
// workload errored (never because a figure is slow: the targets are judged in the output only).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { keepHandNotes, machine, recorder, resultsCommit, resultsMarkdown, sourceRevision, storeTable, table, verdicts } from "./lib/report.mjs";
import { buildBareNext, startBareNext } from "./lib/bare-next.mjs";
import { startScriptedLLM } from "./lib/scripted-llm.mjs";
import { record, startReplay } from "./lib/stream-replay.mjs";
import { ensureBuild, root, startTarget } from "./lib/targets.mjs";
import { runBrowser } from "./workloads/browser.mjs";
import { capturedBodies, label, modelPace, readLatencies, runScale } from "./workloads/scale.mjs";
import { runStoreScale } from "./workloads/store.mjs";
import { runConcurrency } from "./workloads/stream.mjs";
import { runTitleTiming } from "./workloads/title.mjs";

const quick = process.argv.includes("--quick");
const capArg = process.argv.find((a) => a.startsWith("--cap="));
// --cap-threadline=S gives Threadline a budget of its own (e.g. to reach 100k while langgraph dev keeps --cap).
const tlCapArg = process.argv.find((a) => a.startsWith("--cap-threadline="));
// --targets=threadline runs one server kind only; --profile CPU-profiles Threadline's 1a batches
// (test-results/bench-profiles/*.cpuprofile, a summary line each in the output).
const kindsArg = process.argv.find((a) => a.startsWith("--targets="))?.slice(10).split(",");
const profileDir = process.argv.includes("--profile") ? path.join(root, "test-results", "bench-profiles") : undefined;
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const P = quick
  ? { steps: [60, 150], probeN: 20, controlWarm: 5, exchangeN: 20, exchangeSample: 10, exchangeCapMs: 10_000, seedCapMs: 20_000, samples: 10, searchSamples: 5, streamers: 10, levels: [20], concCapMs: 20_000, iterations: 2, browserAt: 150, scrollCapMs: 8_000, storeSizes: [300], storeSamples: 5 }
  : { steps: [1_000, 10_000, 100_000], probeN: 1_000, controlWarm: 100, exchangeN: 1_000, exchangeSample: 500, exchangeCapMs: 90_000, seedCapMs: 420_000, samples: 400, searchSamples: 60, streamers: 50, levels: [50, 100, 200], concCapMs: 120_000, iterations: 20, browserAt: 10_000, scrollCapMs: 90_000, storeSizes: [10_000, 100_000], storeSamples: 40 };
if (capArg) P.seedCapMs = Number(capArg.slice(6)) * 1000;
// A full run gives Threadline up to 1,200 s, which reaches 100k at >= 85/s on a 2-core machine like
// this one (the dev server's 420 s is as far as it goes); --cap or --cap-threadline overrides it.
const seedCapFor = (kind) => {
  if (kind !== "threadline") return P.seedCapMs;
  if (tlCapArg) return Number(tlCapArg.split("=")[1]) * 1000;
  return quick || capArg ? P.seedCapMs : 1_200_000;
};
const KINDS = ["threadline", "langgraph-dev"].filter((k) => !kindsArg || kindsArg.includes(k));
// The Postgres server is named by its presence only (the URL may hold a password); its version is in Versions.
const command = `${process.env.BENCH_DATABASE_URL ? "BENCH_DATABASE_URL=postgres://… " : ""}npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
const rec = recorder();
const errors = [];
const startedAt = new Date();
const revision = sourceRevision();
const load = { start: os.loadavg().map((l) => l.toFixed(1)).join(" ") };
const wanted = (group) => !only || only.includes(group);

// The Next app doing no work (bench/lib/bare-next.mjs), built once when a floor first needs it and
// removed when the run ends: the first page's floor and the streams' floor both start it.
let bareDir;
const bareBuild = () => (bareDir ??= buildBareNext());
process.on("exit", () => bareDir && fs.rmSync(bareDir, { recursive: true, force: true }));

/** Starts `kind` with `env`, runs `work(target)`, always stops it; errors are collected, not thrown. */
async function withTarget(kind, env, work, options = {}) {
  let target;
  const started = Date.now();
  try {
    target = await startTarget(kind, env, options);
    const r = await work(target);
    errors.push(...(r?.errors ?? []).map((e) => `${target.name}: ${e}`));
  } catch (err) {
    errors.push(`${kind}: ${err.stack ?? err}`);
  } finally {
    await target?.stop();
    console.log(`  (${kind} took ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
}

// One scripted model for every group, paced by scale.mjs's modelPace.
const llm = await startScriptedLLM(modelPace);
const modelEnv = { CHAT_MODEL: "openai:bench-chat", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: llm.baseURL };
ensureBuild();
console.log(`bench ${quick ? "--quick" : "(full)"}: ${JSON.stringify(P)}`);

let controlMade; // how many threads the control made (scale.mjs counts them), for the method text
if (wanted("scale")) {
  console.log("\n[1–3, 7] create threads, first page, title search, sidebar in Chromium");
  for (const kind of KINDS) {
    const env = { ...modelEnv, MAX_CONCURRENT_RUNS: "64" };
    await withTarget(kind, env, async (target) => {
      const more = [];
      // Threadline's page against /info is also read on a Next app doing no work that answers
      // Threadline's own bytes (built first; started at the first N, once there is a page of 50 to copy).
      let built;
      if (kind === "threadline") {
        try {
          built = bareBuild();
        } catch (err) {
          more.push(`the first page's floor (a Next app doing no work): ${err.message}`);
        }
      }
      let bare;
      // Warmed by 100 untimed pairs when it starts (Threadline is warm from its seeding by then).
      const startFloor = async (on) => {
        const started = await startBareNext(built, await capturedBodies(on), { keepBuild: true });
        await readLatencies(started, 0, 100);
        return started;
      };
      const floor = built && (async (on) => (bare ??= await startFloor(on)));
      // langgraph dev keeps its state in one folder of the repo, so only Threadline gets a control.
      const control = kind === "threadline" ? await startTarget("threadline", env) : undefined;
      const onStep = async (n, made) => {
        const due = n === P.browserAt || (made < n && n < P.browserAt);
        if (kind === "threadline" && due && wanted("browser")) {
          const r = await runBrowser(target, { total: made, oldestTitle: `Question ${label(0)}`, capMs: P.scrollCapMs, navigations: quick ? 2 : 9 }, rec);
          more.push(...r.errors);
        }
      };
      try {
        const r = await runScale(target, { ...P, seedCapMs: seedCapFor(kind), onStep, control, floor }, rec);
        if (control) controlMade = r.controlMade;
        return { errors: [...r.errors, ...more] };
      } finally {
        await control?.stop();
        await bare?.stop();
      }
    }, { profileDir });
  }
}

if (wanted("stream")) {
  console.log("\n[6] concurrent streaming runs (offline model, 20 ms per token)");
  for (const kind of KINDS) {
    await withTarget(kind, { OFFLINE_MODEL_DELAY_MS: "20", MAX_CONCURRENT_RUNS: "256" }, async (t) => {
      const r = await runConcurrency(t, { levels: P.levels, capMs: P.concCapMs }, rec);
      if (kind !== "threadline") return r;
      // The floors: the same client against a server doing no work, replaying one of this server's
      // runs at its recorded pace (bench/lib/stream-replay.mjs), right after; then the same
      // recording served by the Next app doing no work (what `next start` alone costs the streams).
      const errors = [...r.errors];
      let recording;
      try {
        recording = await record(t);
      } catch (err) {
        return { errors: [...errors, `the streams' floors (recording a run to replay): ${err.message}`] };
      }
      for (const viaNext of [false, true]) {
        let replay;
        try {
          replay = await startReplay(recording, viaNext ? { viaNext, bareDir: bareBuild() } : {});
          const noteOf = (key, note) =>
            key.endsWith(".first") ? `replaying a run of ${replay.about}` : /\.gap(Later)?$/.test(key) ? `includes the recorded run's own pace (20 ms a token; its largest gap ${replay.largestGap.toFixed(1)} ms)` : note;
          const into = { value: (key, _on, v, note) => rec.value(key.replace(/^conc\./, viaNext ? "floor.next." : "floor.conc."), t, v, noteOf(key, note)) };
          const floor = await runConcurrency(replay, { levels: P.levels, capMs: P.concCapMs }, into);
          errors.push(...floor.errors.map((e) => `${replay.name}: ${e}`));
        } catch (err) {
          errors.push(`the streams' floor (${viaNext ? "the Next app doing no work, replaying" : "a replay doing no work"}): ${err.message}`);
        } finally {
          await replay?.stop();
        }
      }
      return { errors };
    });
  }
}

if (wanted("title")) {
  console.log("\n[4, 5] send → title / first token, model calls (scripted model: 100 ms to first token)");
  for (const instant of [true, false]) {
    for (const kind of KINDS) {
      await withTarget(kind, { ...modelEnv, TITLE_INSTANT: String(instant) }, (t) => runTitleTiming(t, llm, { iterations: P.iterations, instant }, rec));
    }
  }
}
await llm.close();

let store;
if (wanted("store") && (!kindsArg || kindsArg.includes("threadline"))) {
  console.log("\n[3] the store on SQLite and Postgres (bench/store-scale.ts; Postgres when BENCH_DATABASE_URL is set)");
  store = await runStoreScale({ sizes: P.storeSizes, samples: P.storeSamples, pgUrl: process.env.BENCH_DATABASE_URL?.trim() || null });
  errors.push(...store.errors);
}

load.end = os.loadavg().map((l) => l.toFixed(1)).join(" ");
const minutes = ((Date.now() - startedAt.getTime()) / 60_000).toFixed(1);
console.log(`\n${table(rec, P)}\n`);
if (store && Object.keys(store.results).length) console.log(`${storeTable(store)}\n`);
for (const v of verdicts(rec, P, store)) console.log(`${v.ok ? "met   " : "MISSED"}  ${v.what}: ${v.figure}`);
const method = `Every thread was made through the API under test, 8 SDK workers, in two ways.
Workload 1a makes threads the way a user does: \`threads.create\` then \`runs.wait\` with one human
message (\`Question t000123 about sourdough baking\`), the real graph answering through a loopback
OpenAI-compatible model (bench/lib/scripted-llm.mjs, answering at once), so each has a checkpointed first
exchange and its fallback title: the first ${P.exchangeN} threads (the last ${P.exchangeSample} of them timed apart, on a warm server),
then ${P.exchangeSample} more at each larger N once 1b has grown the server to it and that N's reads are done, so
this throughput is measured at every N in batches of one size (${P.exchangeCapMs / 1000} s cap for each batch).
Workload 1b grows N the fast way through the same API, the method of issue 10's own figures ("create +
rename"): \`threads.create\` then \`threads.updateState({ values: { title } })\` (a checkpoint written by the
graph, a pinned title), with one time budget per server over all its steps (${seedCapFor("threadline") / 1000} s for Threadline, ${P.seedCapMs / 1000} s for langgraph dev); a server that
spends it stops there, its read figures are taken at the N it reached, and its later steps are not run (never
extrapolated). No bulk path and no direct database writes. Beside Threadline runs a control: a second
Threadline started with it, on a fresh DATA_DIR of its own, that grows only by a warm-up of ${P.controlWarm} threads each way and
its own batches${controlMade === undefined ? "" : ` (${controlMade.toLocaleString("en-US")} threads by the end of this run)`}. Each 1a batch, and at each N a batch of ${P.probeN} made 1b's way, is timed between the same
batch on the control just before and just after it (outside the creating budget); the ratio of the two rates (this server ÷ the mean of the
control's) is what N costs with this machine's speed of that minute divided out (langgraph dev keeps its state in
one folder of the repo, so it runs alone and gets no control). At each N the first page is also timed
taking turns with the same request on the control (which goes first alternates; the control first gets as many untimed
pages as this server has just served), so the two p50s share their minutes. Each reading of the first page and \`GET /info\` times
${P.samples} of each after a few untimed (\`GET /info\` then the page, pair after pair; or the page taking turns with the control). The "runs streaming" of workload 2 are
${P.streamers} threads each running one streamed run after another (100 ms to the first token, then one word every
20 ms; Threadline with MAX_CONCURRENT_RUNS=64, so all of them stream at once rather than 8 with the rest queued). The concurrency runs use the built-in offline model at 20 ms per token and MAX_CONCURRENT_RUNS=256
(Threadline's default of 8 would queue them by design; langgraph dev runs with its defaults). The title timings
use the scripted model (100 ms before its first token, 5 ms per token), which records every request, so model
calls per conversation are counted at the model server.
The framework's floor for the first page: at each N, right after Threadline's own reading, the same
reading on a Next app that does no work (bench/lib/bare-next.mjs: one route handler at Threadline's API
path, built and run by \`next start\` like Threadline, answering Threadline's own /info and first-page
bytes, copied at the first N). The floor for the concurrent streams: right after Threadline's, the same
client and levels against a process that does no work (bench/lib/stream-replay.mjs), replaying one of
Threadline's recorded runs byte for byte at its recorded pace; then the same recording replayed by the
Next app that does no work (its route handler streams the recorded chunks at their pace), built and run
by \`next start\` as Threadline is.`;
const md = resultsMarkdown({ rec, p: P, m: machine(revision), command, startedAt: startedAt.toISOString(), minutes, load, errors, method, store });
// bench/RESULTS.md holds the last full run's tables (and every run's hand notes); a run of some groups or one server kind goes beside the quick one.
const resultsPath = path.join(root, "bench", "RESULTS.md");
const out = quick ? path.join(root, "test-results", "bench-quick.md") : only || kindsArg ? path.join(root, "test-results", "bench-partial.md") : resultsPath;
fs.mkdirSync(path.dirname(out), { recursive: true });
// The hand notes of earlier runs stay (the tables they speak of stay in git, named in their heading).
const earlier = out === resultsPath && fs.existsSync(out) ? fs.readFileSync(out, "utf8") : null;
fs.writeFileSync(out, earlier ? keepHandNotes(earlier, md, resultsCommit(earlier)) : md);
console.log(`\nwrote ${path.relative(root, out)} in ${minutes} min`);
if (errors.length) {
  console.log(`\n${errors.length} workload error(s):\n${errors.slice(0, 20).map((e) => `  ${e}`).join("\n")}`);
  process.exit(1);
}
