import { Client, type Thread } from "@langchain/langgraph-sdk";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { usesOfflineModel } from "@/lib/agent/models";
import { getAccountsHost, getApi } from "@/lib/server/app-api";
import { authModeFromEnv } from "@/lib/server/auth/identity";
import { getRemote, usesRemoteServer } from "@/lib/server/remote";
import { loadTitleConfig } from "@/lib/title/config";
import { apiErrorStatus } from "@/lib/client/api-client";
import type { AppInfo } from "@/lib/client/app-info";
import { fetchStarredPage, fetchThreadPage, fetchThreadRowPage, FIRST_PAGE } from "@/lib/client/thread-pages";
import type { ThreadPage } from "@/lib/client/types";
import { inputMessageIds, isUnfinishedRun, runToFollow } from "@/lib/client/unsent";

/**
 * The ONE seam between server components and the API. Server components talk the same Agent
 * Protocol as the browser (same SDK calls, same lean list), but in-process: the SDK's fetch goes
 * straight to lib/server's handler, no HTTP round trip to ourselves.
 */
const INTERNAL_API = "http://threadline.internal/api/langgraph";

/**
 * The request's cookies go along, so in accounts mode the API answers as the signed-in user (and
 * only with that user's threads). `apiKey: null`: never a key picked up from the server's env.
 */
async function serverClient(): Promise<Client> {
  const cookie = (await headers()).get("cookie");
  return new Client({
    apiUrl: INTERNAL_API,
    apiKey: null,
    defaultHeaders: cookie ? { cookie } : {},
    callerOptions: {
      maxRetries: 0,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        // LANGGRAPH_API_URL: read from that server, through the same forwarder (lib/server/remote).
        const remote = getRemote();
        return remote ? remote.handle(new Request(input, init)) : (await getApi()).handle(new Request(input, init));
      },
    },
  });
}

/** Who is looking: the signed-in person in accounts mode, `local` in local mode, null when signed out. */
export type Viewer = { mode: "local" } | { mode: "accounts"; id: string; name: string; email: string };

export const loadViewer = cache(async (): Promise<Viewer | null> => {
  // Local mode needs no API for this (in front of a LangGraph server it has none: needsEmbeddedApi).
  if (authModeFromEnv() === "local") return { mode: "local" };
  // The session is checked against the accounts database (there, only that database is open).
  const { auth } = await getAccountsHost();
  const user = await auth.accounts?.sessionUser(await headers());
  return user ? { mode: "accounts", ...user } : null;
});

/**
 * Every page but sign-in/sign-up calls this. proxy.ts already redirects a request without a
 * session cookie, but it only sees that a cookie is there, not that it is valid: this is the check.
 */
export async function requireViewer(): Promise<Viewer> {
  const viewer = await loadViewer();
  if (!viewer) redirect("/sign-in");
  return viewer;
}

/** First page of the sidebar (lean list, `$as_of` = now). null if the API is unavailable. */
export const loadFirstThreadPage = cache(async (): Promise<ThreadPage | null> => {
  try {
    return await fetchThreadPage(await serverClient(), FIRST_PAGE, "");
  } catch (err) {
    console.error("[web] could not load the conversation list", err);
    return null;
  }
});

/** Starred threads (they sit above the date groups whatever their age). */
export const loadStarredPage = cache(async (): Promise<ThreadPage | null> => {
  try {
    return await fetchStarredPage(await serverClient());
  } catch (err) {
    console.error("[web] could not load starred conversations", err);
    return null;
  }
});

export type ThreadValues = Record<string, unknown> & { messages?: unknown[]; title?: string | null };

/** The open thread (standard thread object, with `values`), or null when it does not exist. */
export const loadThread = cache(async (threadId: string): Promise<Thread<ThreadValues> | null> => {
  try {
    return await (await serverClient()).threads.get<ThreadValues>(threadId);
  } catch (err) {
    const status = apiErrorStatus(err);
    if (status === 404 || status === 422) return null;
    throw err;
  }
});

/**
 * Ids of the messages sent in the open thread's runs that have not ended (pending or running):
 * the server has them although `values` may not yet (a run waiting for a free slot). A page
 * opened then must not put such a message back into the composer as unsent. Read before the
 * thread: a run that ends in between has its message in the thread by then. Empty when the
 * runs cannot be read: the composer then errs on the side of keeping the text.
 */
export const loadMessagesUnderWay = cache(async (threadId: string): Promise<{ messageIds: string[]; runToFollow: string | null }> => {
  try {
    // One list, filtered here: two (pending, running) could each miss a run moving between them.
    const runs = (await (await serverClient()).runs.list(threadId, { limit: 20 })).filter(isUnfinishedRun);
    return { messageIds: inputMessageIds(runs), runToFollow: runToFollow(runs) };
  } catch (err) {
    const status = apiErrorStatus(err);
    if (status !== 404 && status !== 422) console.error("[web] could not read the conversation's runs", err);
    return { messageIds: [], runToFollow: null };
  }
});

/**
 * The open thread's registry row, as a one-row page: the header, `document.title` and the
 * sidebar read this one source (a pin recorded while a run is going is here before it reaches
 * `values`). null when the thread does not exist or the API is unavailable.
 */
export const loadThreadRow = cache(async (threadId: string): Promise<ThreadPage | null> => {
  try {
    const page = await fetchThreadRowPage(await serverClient(), threadId);
    return page.rows.length ? page : null;
  } catch (err) {
    console.error("[web] could not load the conversation's row", err);
    return null;
  }
});

/** What the page tells the browser about the server's setup. */
export function loadAppInfo(): AppInfo {
  const env = process.env;
  const title = loadTitleConfig(env);
  return {
    offlineModel: usesRemoteServer(env) ? null : usesOfflineModel(env),
    chatModel: env.CHAT_MODEL?.trim() || null,
    title: { enabled: title.enabled, instant: title.instant, max_chars: title.max_chars, fallback_cut: title.fallback_cut },
  };
}

/** This request's "now" (date groups are computed from it so server HTML and first client render agree). */
export const requestNow = cache((): number => Date.now());
