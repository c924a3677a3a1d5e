/**
 * The runs this tab started and has not seen end, plus which thread the chat view shows.
 * It doubles as useStream's `reconnectOnMount` storage (keys `lg:stream:<threadId>` → run id),
 * so the SDK records every run it creates here and forgets it when the run finishes or is stopped.
 * Kept in sessionStorage: a reload still knows which background runs to follow.
 */
import { ownsKept } from "./storage-owner";

type StreamKey = `lg:stream:${string}`;

/**
 * From the moment the user reloads or leaves, the browser cuts this page's streams, which the SDK
 * and the chat view take for their runs' end; the next page may take a while to come (its server
 * asks a LangGraph server first) and must still find those runs stored to rejoin them. So while the
 * page is being left, a forget changes this page's registry but not the stored copy; if the page
 * stays after all (10 s on, or back from the back/forward cache), the stored copy catches up.
 */
const STILL_HERE_MS = 10_000;
let leavingPage = false;
let storedCopyBehind = false;
let stillHere: ReturnType<typeof setTimeout> | undefined;
function stayed() {
  leavingPage = false;
  clearTimeout(stillHere);
  if (storedCopyBehind) runRegistry.store();
}
/** Listens for the page being left on `target` (the window; a plain EventTarget in tests). */
export function watchPageLeaving(target: EventTarget) {
  target.addEventListener("beforeunload", () => {
    leavingPage = true;
    clearTimeout(stillHere);
    stillHere = setTimeout(stayed, STILL_HERE_MS);
  });
  // Back from the back/forward cache: it goes on as a page that stayed.
  target.addEventListener("pageshow", (e) => {
    if ((e as PageTransitionEvent).persisted) stayed();
  });
}
if (typeof window !== "undefined") watchPageLeaving(window);
const PREFIX = "lg:stream:";
const STORE_KEY = "threadline:runs";

export interface ActiveRun {
  threadId: string;
  runId: string;
}

class RunRegistry {
  private runs: Record<string, string> | null = null;
  private open: string | null = null;
  private listeners = new Set<() => void>();
  private version = 0;

  private load(): Record<string, string> {
    if (this.runs) return this.runs;
    this.runs = {};
    try {
      const raw = typeof sessionStorage !== "undefined" ? sessionStorage.getItem(STORE_KEY) : null;
      const parsed: unknown = raw ? JSON.parse(raw) : null;
      if (parsed && typeof parsed === "object") {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") this.runs[k] = v;
      }
    } catch {
      // storage unavailable or corrupt: start empty
    }
    return this.runs;
  }

  /** Writes the registry to sessionStorage (the copy the next page of this tab reads). */
  store() {
    storedCopyBehind = false;
    try {
      // Not after a sign-out (or someone else's sign-in) in another tab: this page reloads.
      if (ownsKept()) sessionStorage.setItem(STORE_KEY, JSON.stringify(this.runs ?? {}));
    } catch {
      // private mode / quota: the in-memory copy still works for this page
    }
  }

  private save(opts: { keepStoredCopy?: boolean } = {}) {
    if (opts.keepStoredCopy) storedCopyBehind = true;
    else this.store();
    this.version += 1;
    for (const l of this.listeners) l();
  }

  // --- RunMetadataStorage (what useStream calls) ---
  getItem = (key: StreamKey): string | null => this.load()[key.slice(PREFIX.length)] ?? null;
  setItem = (key: StreamKey, runId: string): void => {
    this.load()[key.slice(PREFIX.length)] = runId;
    this.save();
  };
  removeItem = (key: StreamKey): void => {
    this.forget(key.slice(PREFIX.length));
  };

  /** The storage object handed to `useStream({ reconnectOnMount })`. */
  storage = () => ({ getItem: this.getItem, setItem: this.setItem, removeItem: this.removeItem });

  list(): ActiveRun[] {
    return Object.entries(this.load()).map(([threadId, runId]) => ({ threadId, runId }));
  }

  has(threadId: string): boolean {
    return threadId in this.load();
  }

  /** Forget a run (it ended); only if it is still the one recorded when `runId` is given. */
  forget(threadId: string, runId?: string): void {
    const runs = this.load();
    if (!(threadId in runs) || (runId !== undefined && runs[threadId] !== runId)) return;
    delete runs[threadId];
    // While the page is being left, the stored copy keeps the run: the next page rejoins it.
    this.save({ keepStoredCopy: leavingPage });
  }

  get openThread(): string | null {
    return this.open;
  }

  setOpenThread(threadId: string | null): void {
    if (this.open === threadId) return;
    this.open = threadId;
    this.version += 1;
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;
}

export const runRegistry = new RunRegistry();
