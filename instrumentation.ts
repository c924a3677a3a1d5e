// Runs once when the server starts. Next also compiles this file for the Edge runtime, so the
// Node-only start-up check lives in its own module, imported only under Node: an Edge build then
// never sees `process.exit` and prints no "Node.js API in the Edge Runtime" warning.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
