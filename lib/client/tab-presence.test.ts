import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * Two pages of one browser: two copies of the modules (each its own cross-tab channel, as each
 * page has), on Node's BroadcastChannel, which delivers between channels of one name in a process
 * as a browser's does between its tabs. Each page's sessionStorage is its own Map, stubbed as the
 * global while that page acts (`as`); a page's tab id is read once and then kept by its module.
 */
type Page = { presence: typeof import("./tab-presence"); unsent: typeof import("./unsent"); session: Map<string, string>; stop: () => void };

function sessionOver(m: Map<string, string>) {
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

const pages: Page[] = [];
async function openPage(session = new Map<string, string>()): Promise<Page> {
  vi.resetModules();
  vi.stubGlobal("sessionStorage", sessionOver(session));
  const presence = await import("./tab-presence");
  const unsent = await import("./unsent");
  const stop = presence.answerTabQuestions();
  const page = { presence, unsent, session, stop };
  pages.push(page);
  return page;
}
/** Runs `fn` as `page` (its sessionStorage is the one the module reads when it first needs it). */
const as = <T>(page: Page, fn: () => T): T => {
  vi.stubGlobal("sessionStorage", sessionOver(page.session));
  return fn();
};

beforeEach(() => vi.stubGlobal("window", {}));
afterEach(() => {
  for (const p of pages.splice(0)) p.stop();
  vi.unstubAllGlobals();
});

describe("which tabs are open", () => {
  it("an open tab answers for its id; a tab that is gone does not, and nobody answers for an id never used", async () => {
    const a = await openPage();
    const b = await openPage();
    const idA = as(a, () => a.unsent.tabId())!;
    expect(await as(b, () => b.presence.isTabOpen(idA))).toBe(true);
    expect(await as(b, () => b.presence.isTabOpen("no-such-tab", 50))).toBe(false);
    a.stop(); // the page closed
    expect(await as(b, () => b.presence.isTabOpen(idA, 50))).toBe(false);
  });

  it("a tab answers for a send only while it is under way there", async () => {
    const a = await openPage();
    const idA = as(a, () => a.unsent.tabId())!;
    a.unsent.sendsUnderWay.add("m1");
    const b = await openPage();
    expect(await as(b, () => b.presence.isSendUnderWay(idA, "m1"))).toBe(true);
    expect(await as(b, () => b.presence.isSendUnderWay(idA, "m2", 50))).toBe(false);
    a.unsent.sendsUnderWay.delete("m1"); // its run was created, or its request failed
    expect(await as(b, () => b.presence.isSendUnderWay(idA, "m1", 50))).toBe(false);
  });

  it("a duplicated tab (its sessionStorage copied from an open one) takes an id of its own; the open one keeps its id", async () => {
    const a = await openPage();
    const idA = as(a, () => a.unsent.tabId())!;
    await as(a, () => a.presence.settledTabId());
    const copy = await openPage(new Map(a.session));
    const idCopy = await as(copy, () => copy.presence.settledTabId());
    expect(idCopy).toBeTruthy();
    expect(idCopy).not.toBe(idA);
    expect(copy.session.get("threadline:tab")).toBe(idCopy);
    expect(as(a, () => a.unsent.tabId())).toBe(idA);
  });

  it("a reload keeps its id: the page before it is gone and cannot answer", async () => {
    const a = await openPage();
    const idA = as(a, () => a.unsent.tabId())!;
    a.stop();
    const reloaded = await openPage(a.session);
    expect(await as(reloaded, () => reloaded.presence.settledTabId())).toBe(idA);
  });

  it("without a cross-tab channel nothing can be asked (null), and a tab keeps its id", async () => {
    vi.stubGlobal("window", undefined);
    const a = await openPage();
    expect(await as(a, () => a.presence.isTabOpen("any"))).toBeNull();
    expect(await as(a, () => a.presence.settledTabId())).toBe(as(a, () => a.unsent.tabId()));
  });
});
