import { Client } from "@langchain/langgraph-sdk";
import { fmtMs, p50, p95, pool, sleep } from "../lib/stats.mjs";

/**
 * Workloads 1–3 on one server: create threads with a first exchange up to each N (8 SDK
 * workers, a time cap per step), then at that N read the first sidebar page beside a bare
 * `GET /info`, idle and while 50 runs stream, and (Threadline only) search titles.
 */
export const label = (i) => `t${String(i).padStart(6, "0")}`;
const human = (text) => ({ messages: [{ role: "human", content: text }] });
export const question = (i) => `Question ${label(i)} about sourdough baking`;
const BACKGROUND = "background stream";

/**
 * The scripted model's pace for one request (`text`: its messages as JSON), for every group of the
 * bench: a thread-making question (1a) is answered at once, whatever its number; a background
 * stream of workload 2 at a model's pace, a long reply word by word; anything else (the title
 * timings) after a fixed 100 ms. Matching on the question's wording, not on its label: a match on
 * "Question t0" once made every label from t100000 on wait for the slow answer, which halved 1a's
 * rate at 100k in three full runs.
 */
export function modelPace(text) {
  if (text.includes(BACKGROUND)) return { firstTokenMs: 100, tokenMs: 20, long: true };
  if (text.includes("about sourdough baking")) return { firstTokenMs: 0, tokenMs: 0 };
  return { firstTokenMs: 100, tokenMs: 5 };
}

/** Thread `i` the way a user makes it: created, then a first exchange (the graph answers and titles). */
export async function exchangeThread(client, i) {
  const t = await client.threads.create({ graphId: "agent", metadata: { bench: "exchange" } });
  await client.runs.wait(t.thread_id, "agent", { input: human(question(i)) });
}

/** Thread `i` the fast way through the same API: created, then its title set by a state update. */
export async function seedThread(client, i) {
  const t = await client.threads.create({ graphId: "agent", metadata: { bench: "seed" } });
  await client.threads.updateState(t.thread_id, { values: { title: question(i) } });
}

/**
 * The by-hand floor scripts' server: `n` titled threads with no metadata (so the page bytes they
 * copy into the no-work app stay the size they measured).
 */
export async function seedPlainThreads(client, n = 50) {
  for (let i = 0; i < n; i++) {
    const { thread_id } = await client.threads.create();
    await client.threads.updateState(thread_id, { values: { title: question(i) } });
  }
}

// The web app's request (lib/client/thread-pages.ts): registry columns plus the extracted title.
function leanPage(client, search) {
  const metadata = { $as_of: new Date().toISOString() };
  if (search) metadata.$title_search = search;
  return client.threads.search({
    select: ["thread_id", "created_at", "activity_at", "status", "metadata"],
    extract: { title: "values.title", title_source: "values.title_source" },
    sortBy: "activity_at",
    sortOrder: "desc",
    limit: 50,
    offset: 0,
    metadata,
  });
}
// langgraph dev has no `extract`: the standard request, whose rows carry `values` (and the title).
const standardPage = (client) => client.threads.search({ limit: 50, sortBy: "updated_at", sortOrder: "desc" });
const rowTitle = (row) => row.extracted?.title ?? row.values?.title;

export function firstPage(target) {
  return target.kind === "threadline" ? leanPage(target.client) : standardPage(target.client);
}

/** The exact bytes `target` answers `GET /info` and the first page with, through the bench's own requests. */
export async function capturedBodies(target) {
  const info = await (await fetch(`${target.apiUrl}/info`)).text();
  let page = "";
  const client = new Client({
    apiUrl: target.apiUrl,
    callerOptions: {
      maxRetries: 0,
      fetch: async (u, init) => {
        const res = await fetch(u, init);
        page = await res.clone().text();
        return res;
      },
    },
  });
  const rows = await firstPage({ kind: target.kind, client });
  return { info, page, rows: rows.length };
}

/** `GET /info` then the first page, one after another, `samples` times after `warmup` untimed pairs (ms). */
export async function readLatencies(target, samples, warmup = 3) {
  const page = [];
  const info = [];
  let untitled = 0;
  for (let i = 0; i < samples + warmup; i++) {
    let t = performance.now();
    const res = await fetch(`${target.apiUrl}/info`);
    await res.json();
    const infoMs = performance.now() - t;
    t = performance.now();
    const rows = await firstPage(target);
    const pageMs = performance.now() - t;
    if (i < warmup) continue;
    info.push(infoMs);
    page.push(pageMs);
    untitled += rows.filter((r) => !rowTitle(r)).length;
  }
  return { page, info, untitled };
}

/**
 * The first page on `target` and on `control`, taking turns (which goes first alternates), `samples`
 * times after `warmup` untimed pairs (ms). The control first gets `controlWarmup` untimed pages of
 * its own (as many as `target` has just served), so neither comes to it colder. The two p50s come
 * from the same minutes of this VM, so the minute's speed divides out of their ratio; what is left
 * is the difference in N and whatever else differs between the two processes (the control has
 * served far fewer requests in all).
 */
export async function pagesSideBySide(target, control, samples, { warmup = 3, controlWarmup = 0 } = {}) {
  for (let i = 0; i < controlWarmup; i++) await firstPage(control);
  const here = [];
  const there = [];
  for (let i = 0; i < samples + warmup; i++) {
    for (const [on, into] of i % 2 ? [[control, there], [target, here]] : [[target, here], [control, there]]) {
      const t = performance.now();
      await firstPage(on);
      if (i >= warmup) into.push(performance.now() - t);
    }
  }
  return { here, there };
}

/** Keeps `width` streaming runs going (one thread each) until the returned stop() is awaited. */
export async function backgroundStreams(target, width, errors) {
  const threads = [];
  for (let i = 0; i < width; i++) threads.push((await target.client.threads.create()).thread_id);
  let running = true;
  let runs = 0;
  const loops = threads.map(async (tid, i) => {
    while (running) {
      try {
        for await (const part of target.client.runs.stream(tid, "agent", { input: human(`${BACKGROUND} ${i} run ${runs}`), streamMode: ["values", "messages-tuple"], multitaskStrategy: "enqueue" })) {
          if (part.event === "error") errors.push(`stream error: ${JSON.stringify(part.data).slice(0, 200)}`);
        }
        runs++;
      } catch (err) {
        errors.push(`stream failed: ${err.message}`);
        await sleep(100);
      }
    }
  });
  await sleep(500); // let them get going
  return async () => {
    running = false;
    await Promise.all(loops);
    return runs;
  };
}

/**
 * Runs `job(i)` for the next indexes up to `n` with 8 SDK workers until `deadline`; returns the
 * index reached. A failed job is added to `errors`, or thrown when there is no such list.
 */
async function make(n, from, deadline, job, errors) {
  let next = from;
  await pool(n - from, 8, async () => {
    const i = next++;
    try {
      await job(i);
    } catch (err) {
      if (!errors) throw err;
      errors.push(`thread ${i}: ${err.message}`);
    }
  }, () => Date.now() < deadline);
  return next;
}

/**
 * Threads from..from+k-1 made by `job(client, i)` on `on` (a started target), 8 SDK workers, until
 * `deadline`: the index reached, threads per second, and the server's CPU milliseconds per thread
 * (all its processes). At the same rate, more CPU each means the work grew; less means it waited.
 */
export async function timedBatch(on, from, k, job, { deadline = Infinity, errors } = {}) {
  const started = performance.now();
  const cpu0 = on.cpuSeconds();
  const upTo = await make(from + k, from, deadline, (i) => job(on.client, i), errors);
  const done = Math.max(1, upTo - from);
  return { upTo, rate: (upTo - from) / ((performance.now() - started) / 1000), cpuMs: ((on.cpuSeconds() - cpu0) * 1000) / done };
}

/**
 * The by-hand scripts' batches on one target, one after another from thread 0: each call makes k
 * threads with `job` and gives threads/s and the server's CPU ms per thread, rounded for printing.
 */
export function batchesOn(target) {
  let made = 0;
  return {
    get made() {
      return made;
    },
    async run(k, job) {
      const { upTo, rate, cpuMs } = await timedBatch(target, made, k, job);
      made = upTo;
      return { perSec: +rate.toFixed(1), serverCpuMsEach: +cpuMs.toFixed(2) };
    },
  };
}

export async function runScale(target, opts, rec) {
  const { steps, exchangeN, exchangeSample, exchangeCapMs, seedCapMs, samples, searchSamples, streamers, onStep, control, probeN = 0, controlWarm = 0, floor } = opts;
  const errors = [];
  let floorFailed = false;
  const { client } = target;
  const timed = (on, from, k, job) => timedBatch(on, from, k, job, { deadline: Date.now() + exchangeCapMs, errors });
  // The control (Threadline only): a second Threadline started beside this one, whose database
  // grows only by these batches (about 9k threads in a full run, against this one's 100k). Each throughput measured at N is taken between the same batch on the control just
  // before and just after it, so this VM's minute-to-minute speed (±20 % in by-hand runs) cancels out
  // of the ratio, and what is left is the cost of N.
  let controlMade = 0;
  const onControl = async (k, job) => {
    const r = await timed(control, controlMade, k, job);
    controlMade = r.upTo;
    return r;
  };
  const fig = (r) => `${r.rate.toFixed(1)}/s (${r.cpuMs.toFixed(1)} ms CPU each)`;
  const besideControl = async (key, where, k, job, measure) => {
    if (!control) return (await measure()).upTo;
    const before = await onControl(k, job);
    const here = await measure();
    const after = await onControl(k, job);
    rec.value(key, target, here.rate / ((before.rate + after.rate) / 2), `${where}: ${fig(here)}; the control ${fig(before)} just before, ${fig(after)} just after`);
    console.log(`  ${target.name} beside the control, ${where}: ${fig(here)}; control ${fig(before)}, ${fig(after)}`);
    return here.upTo;
  };
  if (control) {
    await onControl(controlWarm, exchangeThread);
    await onControl(controlWarm, seedThread);
  }
  // 1a: threads made the way a user makes them, a run each (the graph answers and titles): the
  // first exchangeN from an empty server, of which the last exchangeSample are timed apart (the
  // warm baseline); then, at each larger N the seeding reaches, after that N's reads, another
  // exchangeSample, so the throughput of a real first exchange is known at every N, batch for batch.
  // With --profile (run.mjs), each 1a batch is CPU-profiled on its own: is the server busy or waiting?
  const exchanges = async (key, want, from) => {
    await target.profiler?.start();
    const r = await timed(target, from, want, exchangeThread);
    const profile = await target.profiler?.stop(key);
    const done = r.upTo - from;
    const where = from === 0 ? `the first ${done}` : `${done} more at N=${from}`;
    rec.value(key, target, r.rate, done < want ? `${done} of ${want}: stopped by the ${exchangeCapMs / 1000}s cap` : `${r.cpuMs.toFixed(1)} ms of server CPU each`);
    console.log(`  ${target.name}: ${where} with a first exchange, ${fig(r)}`);
    if (profile) console.log(`    profile (${key}): ${profile}`);
    return r;
  };
  const exchangesBesideControl = (n, from) => besideControl(`exchange.vscontrol.${n}`, `${exchangeSample} at N=${from}`, exchangeSample, exchangeThread, () => exchanges(`exchange.${n}`, exchangeSample, from));
  let made = (await exchanges("exchange.warmup", exchangeN - exchangeSample, 0)).upTo;
  made = await exchangesBesideControl(steps[0], made);

  // 1b: growing N the fast way through the same API (create + a titled state update), which also
  // seeds the read workloads; one creating-time budget per server over all steps.
  // The budget counts creating time only, not the read workloads measured between steps.
  let budgetLeft = seedCapMs;
  for (const n of steps) {
    const started = performance.now();
    const before = made;
    made = await make(n, made, Date.now() + budgetLeft, (i) => seedThread(client, i), errors);
    const secs = (performance.now() - started) / 1000;
    budgetLeft -= secs * 1000;
    const reached = made >= n;
    // A step that made nothing (1a already reached its N) has no throughput to report.
    if (made > before) rec.value(`create.${n}`, target, (made - before) / secs, reached ? "" : `stopped at N=${made} (${seedCapMs / 1000}s budget)`);
    console.log(`  ${target.name}: N=${made}${reached ? "" : ` (budget spent before ${n})`}, ${((made - before) / secs).toFixed(0)}/s over this step`);

    const idle = await readLatencies(target, samples);
    if (idle.untitled) errors.push(`${idle.untitled} rows without a title on the first page at N=${made}`);
    rec.value(`page.${n}.p50`, target, p50(idle.page), reached ? "" : `at N=${made}`);
    rec.value(`page.${n}.p95`, target, p95(idle.page));
    rec.value(`info.${n}.p50`, target, p50(idle.info));
    rec.value(`info.${n}.p95`, target, p95(idle.info));
    rec.value(`pageinfo.${n}`, target, p50(idle.page) / p50(idle.info));
    rec.value(`pageinfo95.${n}`, target, p95(idle.page) / p95(idle.info));
    if (floor && !floorFailed) {
      // The framework's floor in the same minutes: a Next app that answers this server's own /info
      // and first-page bytes with no work (bench/lib/bare-next.mjs), read the same way right after.
      // Its failure is reported and ends the floor, never this server's own workloads.
      try {
        const bare = await floor(target);
        const f = await readLatencies(bare, samples);
        rec.value(`floor.pageinfo.${n}`, target, p50(f.page) / p50(f.info), `${fmtMs(p50(f.page))} vs ${fmtMs(p50(f.info))} ms`);
        rec.value(`floor.pageinfo95.${n}`, target, p95(f.page) / p95(f.info), `${fmtMs(p95(f.page))} vs ${fmtMs(p95(f.info))} ms`);
      } catch (err) {
        floorFailed = true;
        errors.push(`the first page's floor (a Next app doing no work): ${err.message}`);
      }
    }
    if (control) {
      // The control holds only the threads made beside it (1.2k, 3.2k and 6.2k at a full run's three
      // steps): at the first step it holds more than this server, so only the later steps set a
      // larger N against a smaller one. readLatencies just sent this server samples + 3 pages.
      const { here, there } = await pagesSideBySide(target, control, samples, { controlWarmup: samples + 3 });
      rec.value(`page.vscontrol.${n}`, target, p50(here) / p50(there), `${fmtMs(p50(here))} ms at N=${made} vs ${fmtMs(p50(there))} ms on the control at N=${controlMade}, taking turns`);
    }

    const stop = await backgroundStreams(target, streamers, errors);
    const busy = await readLatencies(target, samples);
    const bgRuns = await stop();
    rec.value(`busy.${n}.p50`, target, p50(busy.page), `${bgRuns} runs streamed meanwhile`);
    rec.value(`busy.${n}.p95`, target, p95(busy.page));
    rec.value(`busyinfo.${n}.p50`, target, p50(busy.info));
    rec.value(`busyinfo.${n}.p95`, target, p95(busy.info));
    rec.value(`busyratio.${n}`, target, p50(busy.page) / p50(busy.info));
    rec.value(`busyratio95.${n}`, target, p95(busy.page) / p95(busy.info));

    if (target.kind === "threadline") {
      const narrow = [];
      const broad = [];
      for (let i = 0; i < searchSamples + 3; i++) {
        const word = label((i * 7919) % made);
        let t = performance.now();
        const hits = await leanPage(target.client, word);
        const narrowMs = performance.now() - t;
        if (hits.length !== 1) errors.push(`search "${word}" found ${hits.length} threads, not 1`);
        t = performance.now();
        const all = await leanPage(target.client, "question sourdough");
        if (all.length !== Math.min(50, made)) errors.push(`broad search found ${all.length} rows`);
        if (i < 3) continue;
        narrow.push(narrowMs);
        broad.push(performance.now() - t);
      }
      rec.value(`search.${n}.narrow`, target, p50(narrow), reached ? "" : `at N=${made}`);
      rec.value(`search.${n}.broad`, target, p50(broad), reached ? "" : `at N=${made}`);
    }
    if (onStep) await onStep(n, made);
    if (!reached) break;
    // 1a's batch first, so it runs at N itself; then 1b's probe beside the control, at N + exchangeSample
    // (steps[0]'s 1a batch ran before the loop). Neither counts against the creating budget.
    if (n !== steps[0]) made = await exchangesBesideControl(n, made);
    if (control && probeN) {
      // 1b beside the control: a batch of probeN made the fast way here, between two on the control.
      made = await besideControl(`create.vscontrol.${n}`, `${probeN} at N=${made}`, probeN, seedThread, () => timed(target, made, probeN, seedThread));
    }
  }
  return { errors, made, controlMade };
}
