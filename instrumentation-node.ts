import { validateServerEnv } from "./lib/agent/env-check";

// A bad setting must stop the server right away with a message naming the variable and its
// bounds, not surface later as a failed request.
const problem = validateServerEnv(process.env);
if (problem) {
  console.error(`Threadline cannot start: ${problem}`);
  process.exit(1);
}
