import { Client } from "@langchain/langgraph-sdk";
import { API_PATH, browserApiUrl } from "./api-client";

let browserClient: Client | null = null;
let serverPlaceholder: Client | null = null;

/**
 * The one SDK client of this tab. During server rendering (no window) it returns an inert client
 * that nothing calls: hooks only fetch from effects.
 *
 * The SDK brings @langchain/core with it (a chunk of 531 kB of the 1,725 kB the first page used to
 * load): only the chat view (which streams with useStream) imports this module; the rest of the
 * app reaches the same client through loadBrowserClient (api-client.ts), so the shell and the
 * sidebar paint without it.
 */
export function getBrowserClient(): Client {
  if (typeof window === "undefined") {
    serverPlaceholder ??= new Client({ apiUrl: `http://localhost${API_PATH}` });
    return serverPlaceholder;
  }
  browserClient ??= new Client({ apiUrl: browserApiUrl() });
  return browserClient;
}
