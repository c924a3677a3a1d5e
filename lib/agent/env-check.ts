import { loadTitleConfig } from "@/lib/title/config";
import { authModeFromEnv } from "@/lib/server/auth/identity";
import { guardConfigFromEnv } from "@/lib/server/auth/request-guard";
import { runLimitsFromEnv } from "@/lib/server/runs/run-limits";
import { remoteConfigFromEnv } from "@/lib/server/remote/config";
import { validateModelEnv } from "./models";

/** Every start-time setting check in one place; returns the first problem, or null. */
export function validateServerEnv(env: Readonly<Record<string, string | undefined>>): string | null {
  try {
    loadTitleConfig(env);
    validateModelEnv(env);
    authModeFromEnv(env);
    guardConfigFromEnv(env);
    runLimitsFromEnv(env);
    remoteConfigFromEnv(env);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
