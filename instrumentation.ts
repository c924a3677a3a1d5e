// Runs once when the server starts: a bad setting must stop it right away with a message naming
// the variable and its bounds, not surface later as a failed request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { validateServerEnv } = await import("./lib/agent/env-check");
  const problem = validateServerEnv(process.env);
  if (problem) {
    console.error(`Threadline cannot start: ${problem}`);
    process.exit(1);
  }
  // Next has started listening by now (it sets PORT then); local mode must not be reachable from the network.
  const { localModeExposure } = await import("./lib/server/auth/loopback-only");
  const exposed = localModeExposure(process.env, Number(process.env.PORT || 3000));
  if (exposed) {
    console.error(`Threadline cannot start: ${exposed}`);
    process.exit(1);
  }
}
