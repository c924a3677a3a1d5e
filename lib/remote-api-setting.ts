/**
 * LANGGRAPH_API_URL, the one switch between Threadline's own API and an external LangGraph server.
 * Read where it is asked (never cached), by the server's forwarder and by lib/client's API-flavour
 * check during a server render; it lives outside both because lib/client may not import lib/server.
 * Only presence is decided here: lib/server/remote/config.ts validates the URL at start.
 */
export function remoteApiSetting(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  return env.LANGGRAPH_API_URL?.trim() || null;
}
