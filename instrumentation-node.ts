import { validateServerEnv } from "./lib/agent/env-check";
import { localModeExposure } from "./lib/server/auth/loopback-only";
import { openAtStart } from "./lib/server/app-api";

// A bad setting must stop the server right away with a message naming the variable and its
// bounds, not surface later as a failed request.
const problem = validateServerEnv(process.env);
if (problem) {
  console.error(`Threadline cannot start: ${problem}`);
  process.exit(1);
}
// Next has started listening by now (it sets PORT then); local mode must not be reachable from the network.
const exposed = localModeExposure(process.env, Number(process.env.PORT || 3000));
if (exposed) {
  console.error(`Threadline cannot start: ${exposed}`);
  process.exit(1);
}

// One process per database: open it (taking its lock) now, so a second process on the same
// database stops at start with the reason instead of failing its first request. In front of a
// LangGraph server that is the accounts database alone (none in local mode).
void openAtStart()?.catch((err: Error) => {
  console.error(`Threadline cannot start: ${err.message}`);
  process.exit(1);
});
