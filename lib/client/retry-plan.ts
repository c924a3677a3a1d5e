import { messageRole, userMessageText } from "@/lib/title";

export interface ThreadSnapshot {
  next?: string[] | null;
  values?: { messages?: unknown[] | null } | null;
}

/** The thread exists but its state could not be read (network, server error). */
export const UNREADABLE: unique symbol = Symbol("unreadable state");

/**
 * How to retry a failed send. When the run failed after the user's message was saved, the
 * thread still has the failed step pending: resume it (null input) so the message is not sent
 * twice. Otherwise (refused before it started, e.g. 409) the message never landed: send it again.
 * When the state could not be read, nobody knows whether the message landed: do neither ("ask
 * again"), since resending could post it twice.
 */
export function planRetry(state: ThreadSnapshot | null | typeof UNREADABLE, lastSent: string): "resume" | "resend" | "unknown" {
  if (state === UNREADABLE) return "unknown";
  if (!state?.next?.length) return "resend";
  const last = state.values?.messages?.at(-1);
  return last && messageRole(last) === "user" && userMessageText(last) === lastSent ? "resume" : "resend";
}
