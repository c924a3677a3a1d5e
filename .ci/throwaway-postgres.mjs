// A throwaway PostgreSQL for `npm test`'s Postgres passes when TEST_DATABASE_URL is not given:
// the newest Debian server found under /usr/lib/postgresql (package `postgresql`), a cluster in a
// temp folder, on loopback and a free port, run as user postgres when we are root (initdb refuses
// root) or as ourselves otherwise; stopped and removed when this process exits.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The newest PostgreSQL server binaries installed from Debian's packages, or null. */
export function findPostgresBin(base = "/usr/lib/postgresql") {
  let versions = [];
  try {
    versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, "bin", "initdb")));
  } catch {
    return null;
  }
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(base, versions.at(-1), "bin") : null;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

/**
 * Starts the server; returns its URL (the `postgres` database, trust auth on loopback) and a
 * description, or null with the reason when there is no server to start or it would not start.
 */
export async function startThrowawayPostgres() {
  const pgBin = findPostgresBin();
  if (!pgBin) return { url: null, why: "no PostgreSQL server found under /usr/lib/postgresql (Debian: apt-get install -y postgresql)" };
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-pg-"));
  const run = (tool, args) => {
    const cmd = path.join(pgBin, tool);
    return asRoot ? spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" }) : spawnSync(cmd, args, { encoding: "utf8" });
  };
  if (asRoot) fs.chownSync(dir, Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim()), fs.statSync(dir).gid);
  const port = await freePort();
  const data = path.join(dir, "data");
  const init = run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
  const started = init.status === 0 && run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", `-k ${dir} -h 127.0.0.1 -p ${port}`, "-w", "start"]);
  if (!started || started.status !== 0) {
    const log = fs.existsSync(path.join(dir, "log")) ? fs.readFileSync(path.join(dir, "log"), "utf8").slice(-2000) : "";
    fs.rmSync(dir, { recursive: true, force: true });
    return { url: null, why: `the throwaway PostgreSQL did not start: ${(init.stderr || started?.stderr || "").trim()} ${log}`.trim() };
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", stop);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(128 + os.constants.signals[signal]));
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, why: `a throwaway PostgreSQL (${pgBin}) on 127.0.0.1:${port}, in ${dir}`, stop };
}
