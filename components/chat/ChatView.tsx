"use client";
import type { Message, StreamMode } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { TitleFact, TitleSource } from "@/lib/title";
import { ASSISTANT_ID } from "@/lib/client/api-client";
import { getBrowserClient } from "@/lib/client/sdk-client";
import type { AppInfo } from "@/lib/client/app-info";
import { userMessageContent, type ComposerAttachment } from "@/lib/client/attachments";
import { instantTitleOf } from "@/lib/client/instant-title";
import { visibleMessages } from "@/lib/client/chat-messages";
import { errorTextForPeople, isRequestFailure } from "@/lib/client/error-text";
import { recordNewThread, recordRunActivity, recordStreamTitle, rereadThreadTitle } from "@/lib/client/live-titles";
import { planRetry, UNREADABLE } from "@/lib/client/retry-plan";
import { runRegistry } from "@/lib/client/run-registry";
import { computeThreadTitle } from "@/lib/client/use-thread-title";
import { holdSentFiles, releaseSentFiles } from "@/lib/client/draft-files";
import { holdUnsent, moveUnsent, peekUnsent, releaseUnsent, sendsUnderWay, tabId, withUnsentLock } from "@/lib/client/unsent";
import { browserStorage, NEW_CONVERSATION_DRAFT } from "@/lib/client/use-draft";
import { onTabMessage } from "@/lib/client/cross-tab";
import { wasTaken } from "@/lib/client/taken-sends";
import { useOtherTabs } from "@/lib/client/use-other-tabs";
import { useStopKeepingText } from "@/lib/client/use-stop";
import { ChatError } from "./ChatError";
import { ChatHeader } from "./ChatHeader";
import { Composer, type PutBack, type SentMessage } from "./Composer";
import { DeletedNotice } from "./DeletedNotice";
import { MessageList } from "./MessageList";
import { OfflineBanner } from "./OfflineBanner";
import { lastAnswerOffline } from "@/lib/chat/offline-answer";
import { streamedAnswerOf } from "@/lib/chat/stopped-answer";

const RUN_OPTIONS: { streamMode: StreamMode[]; streamResumable: boolean; onDisconnect: "continue" } = {
  streamMode: ["values", "messages-tuple"],
  streamResumable: true,
  onDisconnect: "continue",
};

export type ChatState = {
  messages: Message[];
  title?: string | null;
  title_source?: TitleSource | null;
};

/** What Retry repeats: our last send (whole, so the files go again), or a run of another tab this view tried to join. */
type LastAction = { kind: "send"; sent: SentMessage } | { kind: "join"; runId: string };

const UNCHECKED_SEND = "Couldn't check whether your message arrived, so it was not sent again. Check your connection, then try again.";
const TAKEN_ELSEWHERE = "Your message is now in another tab's message box: send it from there.";
const NO_LONGER_HELD = "This tab no longer held your message (another tab may have it), so it was not sent again: it is back in your message box.";

interface ChatViewProps {
  /** null on the new-conversation page until the first message creates the thread. */
  threadId: string | null;
  initialValues?: ChatState | null;
  /** The server-rendered title of the thread (so the header never flashes a placeholder). */
  initialFact?: TitleFact | null;
  /** Ids of messages in the thread's runs that have not ended (the server has them, `values` may not yet). */
  messagesUnderWay?: readonly string[];
  /** A run going on the thread when the page was rendered (started by another tab or device): followed on mount. */
  runUnderWay?: string | null;
  app: AppInfo;
}

/**
 * One conversation, streamed with the SDK's `useStream`. Runs are created resumable
 * (`onDisconnect: "continue"`), so leaving the page mid-answer doesn't cancel them; the run
 * registry (useStream's reconnect storage) lets the sidebar follow them and rejoins on return.
 */
export function ChatView({ threadId: initialThreadId, initialValues, initialFact, messagesUnderWay, runUnderWay = null, app }: ChatViewProps) {
  const qc = useQueryClient();
  const [threadId, setThreadId] = useState(initialThreadId);
  const firstMessage = useRef<{ content: unknown } | null>(null);
  const [lastAction, setLastAction] = useState<LastAction | null>(null);
  const [retryProblem, setRetryProblem] = useState<string | null>(null);
  const { stop, onStop, noteRun } = useStopKeepingText<ChatState>(threadId);
  // Our last send, one `SentMessage`, is held three times, each let go at its own moment:
  // - `unsent` keeps it in storage (lib/client/unsent.ts; its files in draft-files.ts) under `key`
  //   until its run exists;
  // - `lastSend` until a Stop has checked that the thread holds it, else Stop puts it back into
  //   the box (kept after its run is made too, for a server that drops the message of a run
  //   cancelled before it started; the embedded server writes it into the thread);
  // - `lastAction`, for Retry, until the next send or join.
  // `kept`: its record made it into storage, so a record gone from there was taken or replaced.
  const unsent = useRef<{ sent: SentMessage; key: string; kept: boolean } | null>(null);
  const forgetUnsent = useCallback(() => {
    const held = unsent.current;
    const storage = browserStorage();
    if (held && storage) releaseUnsent(storage, held.key, held.sent.id);
    if (held?.sent.attachments.length) void releaseSentFiles(held.sent.id);
    if (held) sendsUnderWay.delete(held.sent.id);
    unsent.current = null;
  }, []);
  const lastSend = useRef<SentMessage | null>(null);
  const [putBack, setPutBack] = useState<SentMessage | null>(null);
  // Messages the server has: in the thread, or in the input of a run not yet ended.
  const delivered = useMemo(
    () => new Set([...(initialValues?.messages ?? []).flatMap((m) => (m.id ? [m.id] : [])), ...(messagesUnderWay ?? [])]),
    [initialValues, messagesUnderWay],
  );

  const onThreadId = useCallback(
    (id: string | null) => {
      if (!id) return; // our own abort on unmount
      const held = unsent.current;
      const storage = browserStorage();
      if (held && storage && held.key === NEW_CONVERSATION_DRAFT) {
        // Not moved (another new-chat tab's send replaced the record): it was not ours to keep.
        if (!moveUnsent(storage, held.key, id, held.sent.id)) held.kept = false;
        held.key = id;
      }
      setThreadId(id);
      runRegistry.setOpenThread(id); // before the run is recorded, so nobody else joins it
      window.history.replaceState(null, "", `/c/${encodeURIComponent(id)}`);
      const first = firstMessage.current;
      const instant = app.title.enabled && app.title.instant && first ? instantTitleOf(first, app.title) : null;
      recordNewThread(qc, id, { instantTitle: instant, busy: true });
    },
    [qc, app.title],
  );

  // The run this view last sent, while it streams: the title its values showed at the send (a
  // different one came from the server; the same one may be the optimistic copy of older values),
  // and whether the thread's title was read again for it.
  const ownRun = useRef<{ shownTitle: string; reread: boolean } | null>(null);
  const shownTitle = useRef("");
  const stream = useStream<ChatState>({
    client: getBrowserClient(),
    assistantId: ASSISTANT_ID,
    threadId,
    onThreadId,
    initialValues: initialValues ?? undefined,
    fetchStateHistory: false,
    reconnectOnMount: runRegistry.storage,
    onCreated: (run) => {
      // useStream calls this for runs of our own `submit` only (not joins): our send arrived.
      forgetUnsent();
      noteRun({ threadId: run.thread_id, runId: run.run_id });
      recordRunActivity(qc, run.thread_id, true, { runId: run.run_id });
    },
    // Following a run failed for want of a connection (e.g. rejoining after a reload): Retry
    // follows it again (a send of ours keeps its own retry).
    onError: (err, run) => {
      const runId = run?.run_id;
      if (runId && isRequestFailure(err)) setLastAction((prev) => prev ?? { kind: "join", runId });
    },
    onStop,
  });

  // Which thread is on screen (background runs are followed only for the others).
  useEffect(() => {
    runRegistry.setOpenThread(threadId);
    return () => {
      if (runRegistry.openThread === threadId) runRegistry.setOpenThread(null);
    };
  }, [threadId]);

  // Leaving: stop reading this stream (the run goes on server-side and the sidebar follows it).
  const switchThread = stream.switchThread;
  const switchRef = useRef(switchThread);
  useEffect(() => {
    switchRef.current = switchThread;
  }, [switchThread]);
  useEffect(() => () => switchRef.current(null), []);

  // Live title from this thread's `values` events → that one row (and this header) update.
  const values = stream.values;
  const title = values?.title ?? null;
  const sourceKey = JSON.stringify(values?.title_source ?? null);
  const streaming = stream.isLoading;
  useEffect(() => {
    const key = JSON.stringify([title, sourceKey]);
    shownTitle.current = key;
    if (!threadId || !title) return;
    const source = JSON.parse(sourceKey) as TitleSource | null;
    recordStreamTitle(qc, threadId, { title, title_source: source });
    // Our run's server values name it automatically while this page shows the user's pin: the
    // pin may have been taken off where this page did not see it (a regenerate that ended after a
    // reload), or may still be waiting to be written. The stream only proposes, so the registry,
    // which holds both, is read once and decides.
    const own = ownRun.current;
    if (streaming && own && !own.reread && own.shownTitle !== key && source?.kind !== "user" && computeThreadTitle(qc, threadId).source?.kind === "user") {
      own.reread = true;
      void rereadThreadTitle(qc, threadId).catch(() => undefined);
    }
  }, [qc, threadId, title, sourceKey, streaming]);

  // A run of ours ended (done, stopped or failed).
  const isLoading = stream.isLoading;
  const wasLoading = useRef(false);
  useEffect(() => {
    if (wasLoading.current && !isLoading && threadId) {
      ownRun.current = null;
      runRegistry.forget(threadId);
      recordRunActivity(qc, threadId, false);
    }
    wasLoading.current = isLoading;
  }, [qc, isLoading, threadId]);

  // A send that failed is no longer under way: its record stays, so a reload (or coming back to
  // this conversation) puts the text back into the composer. The same when this view goes.
  const error = stream.error;
  const failed = Boolean(error) && !stream.isLoading;
  useEffect(() => {
    if (failed && unsent.current) sendsUnderWay.delete(unsent.current.sent.id);
  }, [failed]);
  useEffect(
    () => () => {
      if (unsent.current) sendsUnderWay.delete(unsent.current.sent.id);
    },
    [],
  );

  // Another tab opened this conversation and put our failed send back into its composer
  // (use-draft.ts): Retry here would send it a second time, so it goes, and so does this page's
  // hold on the send (its record and files are that tab's now).
  const takenElsewhere = useRef(new Set<string>());
  const [lastTaken, setLastTaken] = useState<string | null>(null);
  // The send a Retry is checking: counted as under way, so a tab asking meanwhile leaves it here;
  // one that took it just before still wins (its word arrives during the check, or the record is
  // found gone under the lock before sending).
  const retrying = useRef<string | null>(null);
  // The ref answers the async checks at once; the state re-renders the page without Retry.
  const noteTaken = useCallback((messageId: string) => {
    takenElsewhere.current.add(messageId);
    if (unsent.current?.sent.id === messageId) unsent.current = null;
    setLastTaken(messageId);
  }, []);
  useEffect(
    () =>
      onTabMessage((m) => {
        if (m.type !== "unsent-taken" || (sendsUnderWay.has(m.messageId) && retrying.current !== m.messageId)) return;
        noteTaken(m.messageId);
      }),
    [noteTaken],
  );

  const { joinStream } = stream;
  const streamSubmit = stream.submit;
  const submit = useCallback(
    (...args: Parameters<typeof streamSubmit>) => {
      ownRun.current = { shownTitle: shownTitle.current, reread: false };
      return streamSubmit(...args);
    },
    [streamSubmit],
  );
  const join = useCallback(
    (runId: string) => {
      setLastAction({ kind: "join", runId });
      setRetryProblem(null);
      // Recorded like our own runs: Stop can cancel it, a reload or leaving keeps following it.
      if (threadId) runRegistry.setItem(`lg:stream:${threadId}`, runId);
      void joinStream(runId);
    },
    [joinStream, threadId],
  );
  const { deleted } = useOtherTabs({ threadId, busy: isLoading, join });
  // Opened while another tab's (or device's) run answers: follow it, as the tabs that were open do.
  // The very run this tab recorded (it started it) is rejoined by useStream itself.
  const followed = useRef(false);
  useEffect(() => {
    if (followed.current || !runUnderWay || !initialThreadId || runRegistry.getItem(`lg:stream:${initialThreadId}`) === runUnderWay) return;
    followed.current = true;
    join(runUnderWay);
  }, [runUnderWay, initialThreadId, join]);

  const send = useCallback(
    (text: string, attachments: readonly ComposerAttachment[] = []): PutBack | undefined => {
      const message = { id: crypto.randomUUID(), type: "human" as const, content: userMessageContent(text, attachments) as Message["content"] };
      if (!threadId) firstMessage.current = message;
      // A send that failed, replaced by another message rather than retried: its text and files
      // go back into the composer (the new send's record takes its place in storage; its files
      // become the composer's, kept as a draft's are).
      const previous = unsent.current?.sent;
      const stale = previous && !sendsUnderWay.has(previous.id) ? previous : null;
      const failed = stale && !sameMessage(stale, text, attachments) ? { text: stale.text, attachments: stale.attachments } : undefined;
      // The new send's record replaces the previous one's, so nothing will come back for its files.
      if (previous?.attachments.length) void releaseSentFiles(previous.id);
      const key = threadId ?? NEW_CONVERSATION_DRAFT;
      const storage = browserStorage();
      const kept = storage ? holdUnsent(storage, key, message.id, text, { tab: tabId(), files: attachments.length > 0 }) : false;
      void holdSentFiles(message.id, attachments);
      if (previous) sendsUnderWay.delete(previous.id);
      sendsUnderWay.add(message.id);
      const sent: SentMessage = { id: message.id, text, attachments };
      unsent.current = { sent, key, kept };
      lastSend.current = sent;
      setLastAction({ kind: "send", sent });
      setRetryProblem(null);
      void submit(
        { messages: [message] },
        { ...RUN_OPTIONS, optimisticValues: (prev) => ({ ...prev, messages: [...(prev.messages ?? []), message] }) },
      );
      return failed;
    },
    [submit, threadId],
  );
  // One Retry at a time (its button is hidden meanwhile); none acts after the view is gone.
  const checking = useRef(false);
  const [isChecking, setIsChecking] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const retrySend = useCallback(
    async (sent: SentMessage) => {
      const { id, text, attachments } = sent;
      if (checking.current) return;
      checking.current = true;
      setIsChecking(true);
      retrying.current = id;
      sendsUnderWay.add(id);
      try {
        const state = threadId ? await getBrowserClient().threads.getState<ChatState>(threadId).catch((): typeof UNREADABLE => UNREADABLE) : null;
        const plan = planRetry(state, text);
        // Taken by another tab while the state was read (the page says so already), or gone.
        if (!mounted.current || takenElsewhere.current.has(id)) return;
        if (plan === "unknown") setRetryProblem(UNCHECKED_SEND);
        else if (plan === "resume") {
          forgetUnsent(); // the conversation holds the message: only its answer is missing
          setRetryProblem(null);
          void submit(null, RUN_OPTIONS);
        } else {
          const held = unsent.current?.sent.id === id ? unsent.current : null;
          // This page no longer holds the send (its run was made, it was stopped, or resumed): no other tab can take it.
          if (!held) {
            send(text, attachments);
            return;
          }
          // Checked and sent under the record's lock, which a tab taking it holds too: the record
          // is either still ours (and replaced by the new send's before anyone can take it) or gone.
          await withUnsentLock(held.key, async () => {
            if (!mounted.current || takenElsewhere.current.has(id)) return;
            const taken = await wasTaken(id);
            if (!mounted.current) return;
            if (taken) {
              noteTaken(id);
              return;
            }
            const storage = browserStorage();
            if (held.kept && storage && peekUnsent(storage, held.key)?.messageId !== id) {
              // Gone without a word yet (taken, or replaced by another tab's send): not sent from here.
              unsent.current = null;
              setLastAction(null);
              setRetryProblem(NO_LONGER_HELD);
              setPutBack(sent);
              return;
            }
            send(text, attachments);
          });
        }
      } finally {
        // The new send, if any, is under way by its own id; this one no longer is.
        sendsUnderWay.delete(id);
        retrying.current = null;
        checking.current = false;
        if (mounted.current) setIsChecking(false);
      }
    },
    [send, submit, threadId, forgetUnsent, noteTaken],
  );

  // Stop before the page heard of a run for its message (the request or its answer stalled):
  // any such run is cancelled, and a message the thread read back does not hold goes back into
  // the composer rather than vanishing. (The embedded server keeps the message of a run stopped
  // before its first step, e.g. one that waited for a free slot: then nothing is put back.)
  const stopStream = stream.stop;
  // The messages on screen, for Stop to read without a new handler on every token.
  const shownMessages = useRef(stream.messages);
  useEffect(() => {
    shownMessages.current = stream.messages;
  }, [stream.messages]);
  const stopKeepingQuestion = useCallback(async () => {
    const sent = lastSend.current;
    const values = await stop(stopStream, sent?.id, () => streamedAnswerOf(shownMessages.current));
    if (!sent || !values || lastSend.current !== sent) return;
    lastSend.current = null;
    if ((values.messages ?? []).some((m) => m.id === sent.id)) return;
    forgetUnsent();
    setPutBack(sent);
  }, [stop, stopStream, forgetUnsent]);

  const lines = useMemo(() => visibleMessages(stream.messages), [stream.messages]);
  // In front of a LangGraph server its model is known from its answers only.
  const offline = app.offlineModel ?? lastAnswerOffline(stream.messages, isLoading);
  const takenAway = lastAction?.kind === "send" && lastAction.sent.id === lastTaken;
  const retry =
    lastAction === null || isLoading || takenAway || isChecking
      ? null
      : lastAction.kind === "send"
        ? () => void retrySend(lastAction.sent)
        : () => join(lastAction.runId);
  const problem = takenAway ? TAKEN_ELSEWHERE : (retryProblem ?? (error ? errorTextForPeople(error) : null));

  return (
    <div className="flex h-dvh min-w-0 flex-1 flex-col" data-testid="chat-view" data-thread-id={threadId ?? ""}>
      <ChatHeader threadId={threadId} seed={initialFact} />
      {offline ? <OfflineBanner onLangGraphServer={app.offlineModel === null} /> : null}
      <MessageList lines={lines} streaming={isLoading}>
        {lines.length === 0 && !isLoading ? (
          <div className="py-16 text-center text-neutral-500 dark:text-neutral-400" data-testid="empty-chat">
            <p className="text-lg font-medium text-neutral-700 dark:text-neutral-300">What&apos;s on your mind?</p>
            <p className="mt-1 text-sm">Your first message names the conversation.</p>
          </div>
        ) : null}
        {problem && !isLoading ? <ChatError message={problem} onRetry={retry} /> : null}
      </MessageList>
      {deleted ? (
        <DeletedNotice how={deleted} />
      ) : (
        <Composer
          streaming={isLoading}
          onSend={send}
          onStop={() => void stopKeepingQuestion()}
          autoFocus={initialThreadId === null}
          draftKey={threadId ?? NEW_CONVERSATION_DRAFT}
          delivered={delivered}
          putBack={putBack}
        />
      )}
    </div>
  );
}

/**
 * The failed message sent again (a retry, or retyped): the same text, or for a message of files
 * alone the same files (by content: a file attached again is read anew, under a new id).
 */
function sameMessage(sent: SentMessage, text: string, attachments: readonly ComposerAttachment[]): boolean {
  if (sent.text !== text) return false;
  if (text.trim()) return true;
  const same = (a: ComposerAttachment, b: ComposerAttachment) => a.name === b.name && a.size === b.size && a.data === b.data;
  return sent.attachments.length === attachments.length && sent.attachments.every((a, i) => same(a, attachments[i]));
}
