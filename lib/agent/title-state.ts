import { z } from "zod";

/** Provenance of a title, stored beside it in graph state (mirrors lib/title's TitleSource). */
export const titleSourceSchema = z.object({
  kind: z.enum(["fallback", "model", "user"]),
  model: z.string().optional(),
});

/** The channels TitleMiddleware adds: they ride in every `values` event and every checkpoint. */
export const titleStateSchema = z.object({
  title: z.string().nullable().default(null),
  title_source: titleSourceSchema.nullable().default(null),
});
