import { decideTitle, isRealUserMessage, messageAttachments, messageRole, normalizeUserTitle, sameTitleFact, titleFactOf, userMessageText, type TitleConfig, type TitleFact, type TitleSource } from "@/lib/title";
import { proposeFallbackTitle } from "@/lib/agent/title-proposals";
import type { ModelTitler } from "@/lib/agent/title-model";
import { contentToText } from "@/lib/title";
import { ApiError, conflict, unprocessable } from "../http/errors";
import { checkpointJson, threadConfig, writeTitleToCheckpoint, type AgentGraph } from "../graph";
import type { Registry } from "../store/registry";
import type { RunManager } from "../runs/run-manager";

export interface TitleServiceDeps {
  graph: AgentGraph;
  registry: Registry;
  runs: RunManager;
  titleConfig: TitleConfig;
  /** "Let AI name this" asks this title model when set; otherwise the local fallback. */
  titler?: ModelTitler | null;
}

const USER: TitleSource = { kind: "user" };

const messagesOf = (values: unknown): unknown[] => (values as { messages?: unknown[] } | undefined)?.messages ?? [];

/** The conversation's messages by id, to tell a new message from a title written meanwhile. */
function messageTrail(messages: readonly unknown[]): string {
  return messages.map((m, i) => String((m as { id?: unknown } | null)?.id ?? `#${i}`)).join("\n");
}

/** Renames and regenerates: the two title writers that come from the API rather than the graph. */
export class TitleService {
  constructor(private readonly d: TitleServiceDeps) {}

  /**
   * A rename. Idle thread → a checkpointed state update. Busy thread → the pin is recorded in
   * the registry at once (search shows it, the running middleware sees it through
   * readTitlePin) and the run manager writes it into the checkpoint when the run ends.
   */
  async rename(threadId: string, raw: unknown) {
    const { registry, runs, graph } = this.d;
    await registry.head(threadId);
    const norm = normalizeUserTitle(raw);
    if (!norm.ok) throw unprocessable(`title-invalid: ${norm.message}`);
    const proposal = { title: norm.title, source: USER };
    return runs.exclusive(
      threadId,
      async () => {
        const snap = await graph.getState(threadConfig(threadId));
        // decideTitle always accepts a user title; asked anyway so there is one rule in one place.
        if (!decideTitle(titleFactOf(snap.values), proposal).accept) throw conflict("Title change refused");
        const config = await writeTitleToCheckpoint(graph, threadId, norm.title, USER);
        await registry.clearPendingPin(threadId);
        await registry.mirrorState(threadId, await graph.getState(threadConfig(threadId)));
        return { checkpoint: checkpointJson(config), title: norm.title, title_source: USER, pending: false };
      },
      async () => {
        if (!decideTitle(registry.titleOf(await registry.head(threadId)), proposal).accept) throw conflict("Title change refused");
        await registry.recordPendingPin(threadId, norm.title);
        return { checkpoint: null, title: norm.title, title_source: USER, pending: true };
      },
    );
  }

  /**
   * Clears the pin and writes a fresh automatic title (409 while a run is going). The conversation
   * is read under the run lock, the title model asked outside it (a message sent meanwhile starts
   * at once instead of waiting for the title call), and the title written under it again, only if
   * the thread did not move on in between: a rename made meanwhile is newer and stays (409
   * title-changed); a message answered meanwhile makes the title out of date (409 thread-changed;
   * asking again names the conversation as it is now).
   * Asked and failed, the model changes nothing (502): the user asked for the AI's title, and a
   * pin must not quietly become the first message's words.
   */
  async regenerate(threadId: string) {
    const { registry, runs, graph, titleConfig } = this.d;
    await registry.head(threadId); // 404 before the lock, which marks the thread for repair
    const busy = (): never => {
      throw conflict(`Thread ${threadId} is busy; regenerate its title when the run has finished`);
    };
    const [row0, snap] = await runs.exclusive(threadId, async () => [await registry.head(threadId), await graph.getState(threadConfig(threadId))] as const, busy);
    const messages = messagesOf(snap.values);
    const fallback = proposeFallbackTitle(messages, titleConfig);
    if (!fallback) throw unprocessable("title-regenerate: the conversation has no message of yours to name it from");
    const model = await this.modelTitle(threadId, messages);
    if (model && !model.ok) throw new ApiError(502, `title-model-failed: the title model gave no usable title (${model.reason}); the title is unchanged`);
    const proposal = model?.fact ?? fallback;
    const before = { fact: titleFactOf(snap.values), checkpoint: checkpointJson(snap.config)?.checkpoint_id ?? null, messages: messageTrail(messages) };
    return runs.exclusive(
      threadId,
      async () => {
        const row = await registry.head(threadId); // deleted meanwhile: 404
        const state = await graph.getState(threadConfig(threadId));
        const now = titleFactOf(state.values);
        // Each compared with itself as read before: a registry already ahead of the checkpoint (a
        // pin still owed) is no change.
        const registryMoved = row.pin_pending !== row0.pin_pending || !sameTitleFact(registry.titleOf(row), registry.titleOf(row0));
        // A checkpoint written with the same messages was a title written (renamed and back).
        const checkpointMoved = (checkpointJson(state.config)?.checkpoint_id ?? null) !== before.checkpoint;
        const messagesMoved = messageTrail(messagesOf(state.values)) !== before.messages;
        if (registryMoved || !sameTitleFact(now, before.fact) || (checkpointMoved && !messagesMoved)) {
          throw conflict("title-changed: the title changed while a new one was being made; it was kept");
        }
        if (checkpointMoved) {
          throw conflict("thread-changed: the conversation moved on while its title was being made; nothing was replaced");
        }
        if (!decideTitle(now, proposal, { regenerate: true }).accept) {
          throw unprocessable("title-regenerate: no usable title could be generated");
        }
        await writeTitleToCheckpoint(graph, threadId, proposal.title, proposal.source);
        await registry.clearPendingPin(threadId);
        await registry.mirrorState(threadId, await graph.getState(threadConfig(threadId)));
        return { title: proposal.title, title_source: proposal.source };
      },
      busy,
    );
  }

  /**
   * A drifted conversation gets a title that fits it now: the model sees the first message and
   * the latest exchange (both capped by the engine). Null when there is no model (or no message
   * of the user's to name it from); `ok: false` with the reason when the model failed.
   */
  private async modelTitle(threadId: string, messages: unknown[]) {
    const { titler, registry } = this.d;
    const users = messages.filter(isRealUserMessage);
    const userText = users.length ? userMessageText(users[0]).trim() : "";
    if (!titler || !userText) return null;
    const lastUser = users.at(-1);
    const lastAssistant = [...messages].reverse().find((m) => messageRole(m) === "assistant");
    const attempt = await titler.request({
      threadId,
      purpose: "regenerate",
      userText,
      attachments: messageAttachments(users[0]),
      latest: users.length > 1 || lastAssistant ? { userText: userMessageText(lastUser), assistantText: contentToText((lastAssistant as { content?: unknown } | undefined)?.content) } : undefined,
      audit: (record) => registry.recordTitleRequest(record),
    });
    return attempt.ok ? { ok: true as const, fact: { title: attempt.title, source: attempt.source } satisfies TitleFact } : { ok: false as const, reason: attempt.reason };
  }
}
