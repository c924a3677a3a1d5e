/**
 * In accounts mode, what this browser keeps (drafts, unsent sends and their files, followed
 * runs) belongs to the one person signed in. Signing out forgets it (account.ts); this covers the
 * ways around that: a session that expired, or was replaced by someone else's sign-in, with no
 * sign-out on this browser; and another tab of the same person still writing after a sign-out.
 *
 * The owner is one localStorage item, outside the `threadline:` prefix so the sign-out sweep
 * leaves it: the signed-in person's id, or "" once signed out. Local mode has no owner.
 */
export const OWNER_KEY = "threadline-owner";
export const KEPT_PREFIX = "threadline:";
export const SIGNED_OUT = "";

type KeyedStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** Removes every item this app keeps, and nothing else of the origin's. */
export function forgetKept(storages: readonly KeyedStorage[]): void {
  for (const storage of storages) {
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((k): k is string => k?.startsWith(KEPT_PREFIX) ?? false);
    for (const key of keys) storage.removeItem(key);
  }
}

/**
 * Makes `owner` the owner of what is kept. When someone else was (an id other than theirs), what
 * they left goes first; true then. A browser with no owner yet (local mode before, or a release
 * before this one) keeps what it has: nobody's sign-out was skipped that we could know of.
 * sessionStorage is each tab's own, and a sign-out sweeps only its own tab's: so each tab's is
 * marked with its owner too, and swept when that is not this person (a tab reloaded after another
 * tab signed out or in, or one from before this release: it only held followed runs and a tab id).
 */
export function claimKept(local: KeyedStorage, session: KeyedStorage, owner: string): boolean {
  const before = local.getItem(OWNER_KEY);
  const someoneElse = before !== null && before !== owner;
  if (someoneElse) forgetKept([local, session]);
  else if (session.getItem(OWNER_KEY) !== owner) forgetKept([session]);
  // Marking may fail (quota): what went is gone all the same, and this page then owns nothing.
  for (const storage of [local, session]) {
    try {
      storage.setItem(OWNER_KEY, owner);
    } catch {
      // ownsKept() reads the local mark: unchanged, it keeps this page from writing
    }
  }
  return someoneElse;
}

/** Whom this page was rendered for; null in local mode (and on the server). */
let pageOwner: string | null = null;

/** May this page keep anything? Not once someone else signed in, or anyone signed out, in this browser. */
export function ownsKept(local: Pick<Storage, "getItem"> | null = safeLocalStorage()): boolean {
  if (pageOwner === null) return true;
  try {
    return local?.getItem(OWNER_KEY) === pageOwner;
  } catch {
    return false;
  }
}

/** Signing out: nobody owns what this browser keeps, and no open page of the person may write it. */
export function disownKept(): void {
  const local = safeLocalStorage();
  try {
    local?.setItem(OWNER_KEY, SIGNED_OUT);
  } catch {
    // A storage refusing writes (full) still removes: no owner is not this person either, so their
    // other tabs reload and stop writing all the same. And the server has signed out: no throw.
    try {
      local?.removeItem(OWNER_KEY);
    } catch {
      // nothing more this browser lets us do
    }
  }
}

/** One of the window's storages, or null (on the server, or where the browser refuses it). */
function windowStorage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return typeof window === "undefined" ? null : window[kind];
  } catch {
    return null;
  }
}

/** This origin's localStorage, or null. */
export const safeLocalStorage = () => windowStorage("localStorage");
/** This tab's sessionStorage, or null. */
export const safeSessionStorage = () => windowStorage("sessionStorage");

/** The shell's claim for the person the page is rendered for (again only when that changes); true when someone else's things went. */
export function claimForPage(owner: string): boolean {
  if (pageOwner === owner) return false;
  try {
    const cleared = claimKept(window.localStorage, window.sessionStorage, owner);
    pageOwner = owner;
    return cleared;
  } catch {
    return false; // storage refused (privacy mode): nothing is kept to protect
  }
}
