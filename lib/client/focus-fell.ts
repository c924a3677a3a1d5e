/**
 * True when nothing on the page holds the keyboard focus (it fell to the body, e.g. because the
 * focused element was removed). Code that moves the focus after a change asks this first, so it
 * never takes the focus from where the user has since put it.
 */
export function focusFellToPage(doc: Document = document): boolean {
  return !doc.activeElement || doc.activeElement === doc.body;
}

/**
 * The conversation list's root element carries this attribute (components/conversation-list), and
 * so does its row menu, which is portalled out of it (to the body).
 */
export const CONVERSATION_LIST_ATTRIBUTE = "data-conversation-list";

/**
 * True when a control of the conversation list holds the focus: a row, the search field, or its
 * open row menu (portalled to the body, outside the list's element).
 */
export function focusInConversationList(doc: Document = document): boolean {
  return Boolean(doc.activeElement?.closest(`[${CONVERSATION_LIST_ATTRIBUTE}]`));
}
