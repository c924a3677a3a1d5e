/**
 * The built app as the Playwright configs start it (their `webServer` entry): `next start` on
 * loopback, no telemetry, and the offline model — no real provider is picked up from the
 * environment. `env` adds or overrides per config; NEXT_DIST_DIR is honoured so a second build
 * folder (e.g. `.next-ui`) can be tested beside the default one.
 */
export function nextStartServer(port: number, baseUrl: string, env: Record<string, string | undefined>) {
  return {
    command: `node_modules/.bin/next start -H 127.0.0.1 -p ${port}`,
    url: `${baseUrl}/api/langgraph/info`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      ...(process.env as Record<string, string>),
      NEXT_TELEMETRY_DISABLED: "1",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
      ...env,
    } as Record<string, string>,
  };
}
