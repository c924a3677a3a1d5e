/**
 * Whether the server names conversations with a title model (TITLE_MODEL). Without one, asking to
 * name a conversation again involves no AI (it takes the first message's title again), so the row
 * menu says that instead of "Let AI name this". Derived where it is read, like api-flavor.ts: on
 * the server from the environment, in the browser from the `data-title-model` attribute the root
 * layout renders on <html>, so a hydrated page agrees with its server render.
 */
export function titleModelSet(): boolean {
  if (typeof document === "undefined") return Boolean(process.env.TITLE_MODEL?.trim());
  return document.documentElement.dataset.titleModel === "on";
}

/**
 * The row menu's words for "name it again": what will do the naming; null when this server does
 * not know (in front of a LangGraph server, whose title model is set there).
 */
export function regenerateLabel(withModel: boolean | null): string {
  if (withModel === null) return "Name it again";
  return withModel ? "Let AI name this" : "Name it from the first message";
}
