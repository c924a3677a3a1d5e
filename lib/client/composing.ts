/**
 * Whether a key press belongs to an input method's composition (Japanese, Chinese, Korean…): its
 * Enter picks a candidate and its Escape drops the composition, neither is ours. Safari sends the
 * Enter that ends a composition after `compositionend`, with `isComposing` false and keyCode 229.
 */
export function isComposingKey(e: Pick<KeyboardEvent, "isComposing" | "keyCode">): boolean {
  return e.isComposing || e.keyCode === 229;
}
