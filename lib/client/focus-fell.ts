/**
 * True when nothing on the page holds the keyboard focus (it fell to the body, e.g. because the
 * focused element was removed). Code that moves the focus after a change asks this first, so it
 * never takes the focus from where the user has since put it.
 */
export function focusFellToPage(doc: Document = document): boolean {
  return !doc.activeElement || doc.activeElement === doc.body;
}

/** The conversation list's root element carries this attribute (components/conversation-list). */
export const CONVERSATION_LIST_ATTRIBUTE = "data-conversation-list";

/** True when a control of the conversation list (a row, its menu, the search field) holds the focus. */
export function focusInConversationList(doc: Document = document): boolean {
  return Boolean(doc.activeElement?.closest(`[${CONVERSATION_LIST_ATTRIBUTE}]`));
}
