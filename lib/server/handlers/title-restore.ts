import { jsonResponse } from "../errors";
import { readBody, type Handler } from "../http";
import { restoreTitle, titleRestoreSchema } from "../title-restore";

export const restoreTitleHandler: Handler = async ({ api, req, params }) =>
  jsonResponse(await restoreTitle(api, params.thread_id, await readBody(req, titleRestoreSchema)));
