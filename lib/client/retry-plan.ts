import { messageRole, userMessageText } from "@/lib/title";

export interface ThreadSnapshot {
  next?: string[] | null;
  values?: { messages?: unknown[] | null } | null;
}

/**
 * How to retry a failed send. When the run failed after the user's message was saved, the
 * thread still has the failed step pending: resume it (null input) so the message is not sent
 * twice. Otherwise (refused before it started, e.g. 409) the message never landed: send it again.
 */
export function planRetry(state: ThreadSnapshot | null, lastSent: string): "resume" | "resend" {
  if (!state?.next?.length) return "resend";
  const last = state.values?.messages?.at(-1);
  return last && messageRole(last) === "user" && userMessageText(last) === lastSent ? "resume" : "resend";
}
