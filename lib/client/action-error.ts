import { apiErrorCode, apiErrorStatus } from "./api-client";

export type RowAction = "rename" | "regenerate" | "star" | "unstar" | "delete";

const WHAT_FAILED: Record<RowAction, string> = {
  rename: "Couldn't rename the conversation.",
  regenerate: "Couldn't name the conversation.",
  star: "Couldn't star the conversation.",
  unstar: "Couldn't unstar the conversation.",
  delete: "Couldn't delete the conversation.",
};

/** Why, in words a person can act on; never the server's raw text (it may name thread ids). */
function reasonFor(action: RowAction, status: number | undefined, code: string | null): string {
  if (status === undefined) return "Check your connection and try again.";
  if (status === 404) return "It no longer exists: it may have been deleted in another tab.";
  if (code === "title-changed") return "Its title was changed meanwhile, and that title stays.";
  if (code === "thread-changed") return "The conversation moved on meanwhile. Try again to name it as it is now.";
  if (code === "title-model-failed") return "The AI gave no usable title, so the title is unchanged. Try again in a moment.";
  if (status === 409) return "It is still answering. Try again when the answer has finished.";
  if (status === 422 && action === "regenerate") return "It needs a first message before it can be named.";
  if (status === 429) return "Too many requests. Wait a moment and try again.";
  if (status >= 500) return "Something went wrong on our side. Try again in a moment.";
  return "Please try again.";
}

/** The toast text for a row action that failed. */
export function actionErrorText(action: RowAction, err: unknown): string {
  return `${WHAT_FAILED[action]} ${reasonFor(action, apiErrorStatus(err), apiErrorCode(err))}`;
}
