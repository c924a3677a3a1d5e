import { getAccountsHost } from "@/lib/server/app-api";
import { serveKeySettings } from "@/lib/server/auth/account-routes";

// The API-key settings: list and create at /api/account/keys, revoke at /api/account/keys/{id}.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id?: string[] }> };

async function handle(req: Request, { params }: Ctx) {
  const { id } = await params;
  if (id && id.length > 1) return Response.json({ detail: "Not found" }, { status: 404 });
  return serveKeySettings(await getAccountsHost(), req, id?.[0] ?? null);
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = handle;
