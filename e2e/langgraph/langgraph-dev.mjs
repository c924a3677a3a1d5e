// Starts `langgraphjs dev` on this repo's graph for the LangGraph-server e2e run, with its own
// storage: langgraph dev keeps threads in `<project>/.langgraph_api`, so it is run from a scratch
// project folder (LG_E2E_DIR) whose langgraph.json, tsconfig and sources point back at this repo.
// Usage: node e2e/langgraph/langgraph-dev.mjs <port>
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const port = process.argv[2];
const dir = process.env.LG_E2E_DIR;
if (!port || !dir) throw new Error("usage: LG_E2E_DIR=<scratch dir> node e2e/langgraph/langgraph-dev.mjs <port>");

fs.mkdirSync(dir, { recursive: true });
for (const entry of ["lib", "node_modules", "tsconfig.json", "package.json"]) {
  const link = path.join(dir, entry);
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(root, entry), link);
}
fs.copyFileSync(path.join(root, "langgraph.json"), path.join(dir, "langgraph.json"));

const child = spawn(path.join(root, "node_modules/.bin/langgraphjs"), ["dev", "--no-browser", "--no-reload", "--port", port, "--host", "127.0.0.1"], {
  cwd: dir,
  stdio: "inherit",
  env: { ...process.env, LANGSMITH_TRACING: "" },
});
const stop = () => child.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
