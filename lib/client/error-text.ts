import { apiErrorStatus } from "./api-client";

/**
 * What to tell a person when a request failed: by kind of failure, never the server's raw text
 * (which may name thread ids or API options). `apiErrorMessage` stays for details written for
 * people on purpose (a refused title says why).
 */
export function errorTextForPeople(err: unknown): string {
  const status = apiErrorStatus(err);
  if (status === 409) return "The conversation is busy with another answer. Try again when it has finished.";
  if (status === 404) return "This conversation no longer exists.";
  if (status === 429) return "Too many requests right now. Wait a moment, then try again.";
  if (status !== undefined && status >= 500) return "The server ran into a problem. Try again in a moment.";
  if (status !== undefined) return "The server refused the request.";
  if (isNetworkFailure(err)) return "Couldn't reach the server. Check your connection, then try again.";
  return "The model couldn't finish the answer.";
}

function isNetworkFailure(err: unknown): boolean {
  if (err instanceof TypeError) return true;
  const text = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /failed to fetch|networkerror|network error|load failed|fetch failed/i.test(text);
}

/** The request itself failed (HTTP status or no connection), as opposed to a run that failed. */
export function isRequestFailure(err: unknown): boolean {
  return err != null && (apiErrorStatus(err) !== undefined || isNetworkFailure(err));
}
