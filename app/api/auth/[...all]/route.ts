import { getAccountsHost } from "@/lib/server/app-api";
import { serveAuthRoute } from "@/lib/server/auth/account-routes";

// better-auth at its default base path; our guard and body rules run first (account-routes.ts).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = async (req: Request) => serveAuthRoute(await getAccountsHost(), req);

export const GET = handle;
export const POST = handle;
export const OPTIONS = handle;
