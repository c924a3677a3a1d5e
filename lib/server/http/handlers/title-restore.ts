import { jsonResponse } from "../errors";
import { readBody, type Handler } from "../http";
import { restoreTitle, titleRestoreSchema } from "../../titles/title-restore";

export const restoreTitleHandler: Handler = async (ctx) => jsonResponse(await restoreTitle(ctx.api, ctx.params.thread_id, readBody(ctx, titleRestoreSchema)));
