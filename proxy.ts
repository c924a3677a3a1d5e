import { NextResponse, type NextRequest } from "next/server";
import { authModeFromEnv } from "@/lib/server/auth/identity";
import { guardConfigFromEnv, guardRequest } from "@/lib/server/auth/request-guard";

// Pages get the same Host allowlist as the API (a rebinding page must not read the SSR'd list of
// titles). The API routes run their guard themselves (api.serve, account-routes.ts), so they are
// not matched here.
const guard = guardConfigFromEnv();
const mode = authModeFromEnv();
const SIGNED_OUT_PAGES = new Set(["/sign-in", "/sign-up"]);

/** better-auth's session cookie, plain or `__Secure-` (behind HTTPS). Presence only: pages check validity. */
const hasSessionCookie = (request: NextRequest) => request.cookies.getAll().some((c) => /^(__Secure-)?better-auth\.session_token$/.test(c.name));

export function proxy(request: NextRequest) {
  const refused = guardRequest(request, guard);
  if (refused) return refused;
  // Accounts mode: no session cookie → sign in first. A convenience, not the security boundary:
  // every page checks the session itself (requireViewer in app/_data.ts).
  const path = request.nextUrl.pathname;
  if (mode === "accounts" && !SIGNED_OUT_PAGES.has(path) && !hasSessionCookie(request)) {
    const to = request.nextUrl.clone();
    to.pathname = "/sign-in";
    to.search = "";
    if (path !== "/") to.searchParams.set("next", `${path}${request.nextUrl.search}`);
    return NextResponse.redirect(to);
  }
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!api/langgraph|api/auth|api/account|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
