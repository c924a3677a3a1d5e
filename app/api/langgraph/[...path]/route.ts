import { getApi } from "@/lib/server/app-api";
import { getRemote } from "@/lib/server/remote";

// One catch-all: the ~30 Agent Protocol routes live in one table in lib/server/http/routes.ts, every
// answer goes through one error mapper (a client mistake is never a 5xx, which the SDK would
// retry), and the in-process test suites call the very same handler Next serves.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// From the network: Host allowlist, cross-site refusal and CORS run before the API (api.serve).
// With LANGGRAPH_API_URL the same checks run, then lib/server/remote forwards to that server.
const handle = async (req: Request) => {
  const remote = getRemote();
  return remote ? remote.serve(req) : (await getApi()).serve(req);
};

export const GET = handle;
export const POST = handle;
export const PATCH = handle;
export const PUT = handle;
export const DELETE = handle;
export const HEAD = handle;
export const OPTIONS = handle;
