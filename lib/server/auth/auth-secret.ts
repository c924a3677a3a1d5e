import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The file in DATA_DIR that holds the generated secret when BETTER_AUTH_SECRET is unset. */
export const SECRET_FILE = "auth-secret";

/**
 * better-auth signs session cookies with this secret. `BETTER_AUTH_SECRET` wins; otherwise one is
 * generated on the first start and kept in DATA_DIR (owner-only, 0600) so sessions survive
 * restarts. A second process racing the first start reads the file the winner wrote.
 */
export function authSecret(dataDir: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = env.BETTER_AUTH_SECRET?.trim();
  if (given) {
    if (given.length < 32) throw new Error("BETTER_AUTH_SECRET must be at least 32 characters long");
    return given;
  }
  const file = path.join(dataDir, SECRET_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": create only, never overwrite a secret that already signs live sessions.
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret; delete it to generate a new one, or set BETTER_AUTH_SECRET`);
  return secret;
}
