import { NextResponse, type NextRequest } from "next/server";
import { guardConfigFromEnv, guardRequest } from "@/lib/server/auth/request-guard";

// Pages get the same Host allowlist as the API (a rebinding page must not read the SSR'd list of
// titles). The API route runs the full guard itself (api.serve), so it is not matched here.
const guard = guardConfigFromEnv();

export function proxy(request: NextRequest) {
  return guardRequest(request, guard) ?? NextResponse.next();
}

export const config = {
  matcher: ["/((?!api/langgraph|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
