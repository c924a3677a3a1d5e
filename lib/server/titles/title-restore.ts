import { z } from "zod";
import { decideTitle, sameTitleFact, titleFactOf, type TitleFact, type TitleSource } from "@/lib/title";
import { conflict, unprocessable } from "../http/errors";
import { checkpointJson, threadConfig, writeTitleToCheckpoint } from "../graph";
import type { Api } from "../api";

const sourceSchema = z.object({
  kind: z.enum(["fallback", "model", "user"]),
  model: z
    .string()
    .min(1)
    .nullish()
    .transform((v) => v ?? undefined),
});

export const titleRestoreSchema = z.object({
  title: z.string().min(1),
  title_source: sourceSchema,
  /** The title the client believes is current; a mismatch is 409 so an Undo never clobbers a newer title. */
  expected: z
    .object({ title: z.string().nullable(), title_source: sourceSchema.nullable() })
    .nullish()
    .transform((v) => v ?? undefined),
});
export type TitleRestoreBody = z.infer<typeof titleRestoreSchema>;

const sourceOf = (s: { kind: TitleSource["kind"]; model?: string }): TitleSource => (s.model ? { kind: s.kind, model: s.model } : { kind: s.kind });

/** Whether this exact (title, source) pair was ever the thread's title: clients may only go back, never invent. */
async function appearsInHistory(api: Api, threadId: string, wanted: TitleFact): Promise<boolean> {
  for await (const snap of api.graph.getStateHistory(threadConfig(threadId))) {
    if (sameTitleFact(titleFactOf(snap.values), wanted)) return true;
  }
  return false;
}

/**
 * Puts back an earlier title WITH its original source (the rename toast's Undo): restoring a
 * fallback or model title unpins the thread again. Only pairs from the thread's own checkpoint
 * history are accepted, so a client cannot forge a "model" title. Like regenerate it is an
 * explicit user request, so it goes through decideTitle with `regenerate: true`, and it is 409
 * while a run is going (the run would race it).
 */
export async function restoreTitle(api: Api, threadId: string, body: TitleRestoreBody) {
  const { registry, runs, graph } = api;
  await registry.head(threadId);
  const proposal = { title: body.title, source: sourceOf(body.title_source) };
  return runs.exclusive(
    threadId,
    async () => {
      if (!(await appearsInHistory(api, threadId, proposal))) {
        throw unprocessable("title-restore-unknown: that title with that source never appeared in this conversation's history");
      }
      const snap = await graph.getState(threadConfig(threadId));
      const current = titleFactOf(snap.values);
      if (body.expected) {
        const expected = { title: body.expected.title, source: body.expected.title_source && sourceOf(body.expected.title_source) };
        if (!sameTitleFact(current, expected)) throw conflict("title-changed: the title changed since; nothing was restored");
      }
      if (!decideTitle(current, proposal, { regenerate: true }).accept) {
        throw unprocessable("title-restore-refused: that title cannot be restored");
      }
      const config = await writeTitleToCheckpoint(graph, threadId, proposal.title, proposal.source);
      await registry.clearPendingPin(threadId);
      await registry.mirrorState(threadId, await graph.getState(threadConfig(threadId)));
      return { checkpoint: checkpointJson(config), title: proposal.title, title_source: proposal.source };
    },
    () => {
      throw conflict(`Thread ${threadId} is busy; restore its title when the run has finished`);
    },
  );
}
