import { NextResponse, type NextRequest } from "next/server";
import { authModeFromEnv } from "@/lib/server/auth/identity";
import { guardConfigFromEnv, guardRequest } from "@/lib/server/auth/request-guard";

// Pages get the same Host allowlist as the API (a rebinding page must not read the SSR'd list of
// titles). The API routes run their guard themselves (api.serve, account-routes.ts), so they are
// matched here only when their path holds a `%` (see below).
const guard = guardConfigFromEnv();
const mode = authModeFromEnv();
const SIGNED_OUT_PAGES = new Set(["/sign-in", "/sign-up"]);

/** better-auth's session cookie, plain or `__Secure-` (behind HTTPS). Presence only: pages check validity. */
const hasSessionCookie = (request: NextRequest) => request.cookies.getAll().some((c) => /^(__Secure-)?better-auth\.session_token$/.test(c.name));

const API_ROUTES = /^\/api\/(langgraph|auth|account)(\/|$)/;

/** A path segment that is not valid percent-encoding (`%ZZ`, a cut UTF-8 sequence). */
const malformedSegment = (pathname: string) =>
  pathname.split("/").some((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });

export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  // Next cannot decode such a path into a route's params and answers a bare 500 (which the SDK
  // would retry): the client's mistake gets a 400 instead. The API routes run their own checks
  // (api.serve, account-routes.ts); of them, only paths with a `%` come here.
  if (API_ROUTES.test(path)) {
    return malformedSegment(path) ? NextResponse.json({ detail: "The path is not valid percent-encoding" }, { status: 400 }) : NextResponse.next();
  }
  if (malformedSegment(path)) return new NextResponse("Bad request: the address is not valid percent-encoding", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const refused = guardRequest(request, guard);
  if (refused) return refused;
  // Accounts mode: no session cookie → sign in first. A convenience, not the security boundary:
  // every page checks the session itself (requireViewer in app/_data.ts).
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
  matcher: ["/((?!api/langgraph|api/auth|api/account|_next/static|_next/image|favicon.ico|icon.svg).*)", "/api/(langgraph|auth|account)/(.*%.*)"],
};
