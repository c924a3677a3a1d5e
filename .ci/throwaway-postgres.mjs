// A throwaway PostgreSQL for `npm test`'s Postgres passes when TEST_DATABASE_URL is not given:
// the newest Debian server found under /usr/lib/postgresql (package `postgresql`), a cluster in a
// temp folder, on loopback and a free port, run as user postgres when we are root (initdb refuses
// root) or as ourselves otherwise; stopped and removed when this process exits. A cluster left by a
// runner that was killed outright (its owner.pid no longer alive) is stopped and removed at the
// next start.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const PREFIX = "threadline-pg-";

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

/** user postgres's uid and gid, from /etc/passwd (the Debian package creates the user). */
function postgresUser() {
  const line = fs.readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("there is no user postgres (the Debian package creates it)");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
};

/** Runs one of the server's tools, as user postgres when we are root. */
function tool(pgBin, asRoot, name, args) {
  const cmd = path.join(pgBin, name);
  return asRoot ? spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" }) : spawnSync(cmd, args, { encoding: "utf8" });
}

/** Stops and removes clusters whose runner died without stopping them. */
function removeOrphans(base, pgBin, asRoot) {
  for (const name of fs.readdirSync(base).filter((n) => n.startsWith(PREFIX))) {
    const dir = path.join(base, name);
    let owner;
    try {
      owner = Number(fs.readFileSync(path.join(dir, "owner.pid"), "utf8").trim());
    } catch {
      continue; // not one of ours to judge (no owner recorded)
    }
    if (!owner || alive(owner)) continue;
    if (fs.existsSync(path.join(dir, "data"))) tool(pgBin, asRoot, "pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "-w", "stop"]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the server; returns its URL (the `postgres` database, trust auth on loopback) and a
 * description, or null with the reason: `broken` when a server is installed but would not start
 * (a failure of the test run, not a skip).
 */
export async function startThrowawayPostgres() {
  const pgBin = findPostgresBin();
  if (!pgBin) return { url: null, why: "no PostgreSQL server found under /usr/lib/postgresql (Debian: apt-get install -y postgresql)" };
  const asRoot = process.getuid?.() === 0;
  // As root, /tmp: user postgres must reach the folder (TMPDIR may point under /root).
  const base = asRoot ? "/tmp" : os.tmpdir();
  let dir;
  let data;
  const reason = (r) => [r?.error?.message, r?.stderr?.trim()].filter(Boolean).join(" ");
  try {
    removeOrphans(base, pgBin, asRoot);
    dir = fs.mkdtempSync(path.join(base, PREFIX));
    fs.writeFileSync(path.join(dir, "owner.pid"), String(process.pid));
    if (asRoot) {
      const { uid, gid } = postgresUser();
      fs.chownSync(dir, uid, gid);
    }
    const port = await freePort();
    data = path.join(dir, "data");
    const init = tool(pgBin, asRoot, "initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
    if (init.status !== 0) throw new Error(`initdb failed: ${reason(init)}`);
    const start = tool(pgBin, asRoot, "pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", `-k ${dir} -h 127.0.0.1 -p ${port}`, "-w", "start"]);
    if (start.status !== 0) throw new Error(`pg_ctl start failed: ${reason(start)} ${fs.existsSync(path.join(dir, "log")) ? fs.readFileSync(path.join(dir, "log"), "utf8").slice(-1500) : ""}`);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      tool(pgBin, asRoot, "pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      fs.rmSync(dir, { recursive: true, force: true });
    };
    process.on("exit", stop);
    // A listener keeps Node from dying at once on these: the runner exits between steps instead
    // (test-all.mjs), and the exit hook stops the server.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(128 + os.constants.signals[signal]));
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, why: `a throwaway PostgreSQL (${pgBin}) on 127.0.0.1:${port}, in ${dir}`, stop };
  } catch (err) {
    // A server that may have half started is stopped before its folder goes.
    if (data && fs.existsSync(data)) tool(pgBin, asRoot, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    return { url: null, broken: true, why: `the throwaway PostgreSQL did not start: ${err.message}` };
  }
}
