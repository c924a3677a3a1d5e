/**
 * True when nothing on the page holds the keyboard focus (it fell to the body, e.g. because the
 * focused element was removed). Code that moves the focus after a change asks this first, so it
 * never takes the focus from where the user has since put it.
 */
export function focusFellToPage(doc: Document = document): boolean {
  return !doc.activeElement || doc.activeElement === doc.body;
}
