import { describe, expect, it } from "vitest";
import { focusFellToPage, focusInConversationList } from "./focus-fell";

// No DOM in the unit suite: a document is only its body and the active element here.
const docWith = (activeElement: object | null) => ({ body: { tagName: "BODY" }, activeElement }) as unknown as Document;

describe("focusFellToPage", () => {
  it("is true when the body holds the focus, or nothing does", () => {
    const body = { tagName: "BODY" };
    expect(focusFellToPage({ body, activeElement: body } as unknown as Document)).toBe(true);
    expect(focusFellToPage(docWith(null))).toBe(true);
  });

  it("is false while an element holds it", () => {
    expect(focusFellToPage(docWith({ tagName: "INPUT" }))).toBe(false);
  });
});

describe("focusInConversationList", () => {
  // `closest` as the DOM answers it: the element itself or an ancestor matching the selector.
  const element = (inList: boolean) => ({ closest: (selector: string) => (inList && selector === "[data-conversation-list]" ? {} : null) });

  it("is true for a control inside the list, false outside it or with no focus", () => {
    expect(focusInConversationList(docWith(element(true)))).toBe(true);
    expect(focusInConversationList(docWith(element(false)))).toBe(false);
    expect(focusInConversationList(docWith(null))).toBe(false);
  });
});
