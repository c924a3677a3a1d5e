import { titleFactOf, type TitleFact, type TitleSource } from "@/lib/title";
import { ApiHttpError, browserApiUrl } from "./api-client";

/**
 * Puts back an earlier title with its original source (not an SDK method). `expected` is the title
 * the caller believes is current: the server answers 409 instead of overwriting a newer one.
 */
export async function requestTitleRestore(
  threadId: string,
  target: { title: string; source: TitleSource },
  expected?: TitleFact,
): Promise<TitleFact> {
  const body = {
    title: target.title,
    title_source: target.source,
    ...(expected ? { expected: { title: expected.title, title_source: expected.source } } : {}),
  };
  const res = await fetch(`${browserApiUrl()}/threads/${encodeURIComponent(threadId)}/title/restore`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new ApiHttpError(res.status, `HTTP ${res.status}: ${text}`);
  return titleFactOf(JSON.parse(text));
}
