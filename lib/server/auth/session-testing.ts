import { randomInt } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import type { Api } from "../api";
import { serveAuthRoute } from "./account-routes";

/** Test helpers for accounts mode: real better-auth sign-ups through /api/auth, SDK clients on a session cookie. */
export const ORIGIN = "http://localhost:3000";
export const PASSWORD = "correct horse battery staple";

/** A fresh client IP per caller, so better-auth's per-IP limiter only bites where a test wants it. */
export const someIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** `name=value` pairs of a response's session cookies, ready for a Cookie header. */
export function sessionCookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => /session_token=/.test(c))
    .join("; ");
}

export function authRequest(api: Api, path: string, body: unknown, headers: Record<string, string> = {}) {
  return serveAuthRoute(
    api,
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN, "x-forwarded-for": someIp(), ...headers },
      body: JSON.stringify(body),
    }),
  );
}

export async function signUp(api: Api, email: string, password = PASSWORD) {
  const res = await authRequest(api, "/sign-up/email", { name: email.split("@")[0], email, password });
  if (res.status !== 200) throw new Error(`sign-up of ${email} answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  return { id: body.user.id, cookie: sessionCookieOf(res), setCookie: res.headers.getSetCookie() };
}

/** The official SDK, through the network path (api.serve: guard, CORS), acting as the cookie's user. */
export function clientWithCookie(api: Api, cookie: string): Client {
  return new Client({
    apiUrl: `${ORIGIN}/api/langgraph`,
    // A browser's headers: the cookie, and the Origin it sends on every write.
    defaultHeaders: { cookie, origin: ORIGIN },
    callerOptions: { maxRetries: 0, fetch: ((u: string | URL | Request, i?: RequestInit) => api.serve(new Request(u, i))) as typeof fetch },
  });
}
