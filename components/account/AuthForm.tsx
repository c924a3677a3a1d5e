"use client";
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { AccountError, safeNext, signIn, signUp } from "@/lib/client/account";

type Mode = "sign-in" | "sign-up";

const COPY: Record<Mode, { heading: string; submit: string; busy: string; other: string; otherHref: string; otherLabel: string }> = {
  "sign-in": { heading: "Sign in to Threadline", submit: "Sign in", busy: "Signing in…", other: "New here?", otherHref: "/sign-up", otherLabel: "Create an account" },
  "sign-up": { heading: "Create your Threadline account", submit: "Create account", busy: "Creating account…", other: "Already have an account?", otherHref: "/sign-in", otherLabel: "Sign in" },
};

const field =
  "mt-1 block min-h-11 w-full rounded-md border border-neutral-300 bg-white px-3 py-2 text-sm text-neutral-900 placeholder:text-neutral-500 focus:border-blue-600 focus:outline-2 focus:outline-blue-600 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:placeholder:text-neutral-400";

/** Sign-in and sign-up: email + password (better-auth), then a full page load so nothing of a previous session stays in memory. */
export function AuthForm({ mode, next }: { mode: Mode; next?: string | null }) {
  const copy = COPY[mode];
  const errorId = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    try {
      if (mode === "sign-up") await signUp(String(form.get("name") ?? "").trim() || email.split("@")[0], email, password);
      else await signIn(email, password);
      window.location.assign(safeNext(next));
    } catch (err) {
      setError(err instanceof AccountError ? err.message : "Could not reach the server. Check your connection and try again.");
      setBusy(false);
    }
  }

  return (
    <div className="grid min-h-dvh place-items-center px-4 py-10">
      <main className="w-full max-w-sm" data-testid={`${mode}-page`}>
        <p className="text-sm font-semibold tracking-tight">Threadline</p>
        <h1 className="mt-2 text-xl font-semibold">{copy.heading}</h1>
        <form onSubmit={submit} className="mt-6 space-y-4" aria-describedby={error ? errorId : undefined} noValidate={false}>
          {mode === "sign-up" ? (
            <label className="block text-sm font-medium">
              Name
              <input name="name" type="text" autoComplete="name" maxLength={80} className={field} data-testid="auth-name" />
            </label>
          ) : null}
          <label className="block text-sm font-medium">
            Email
            <input name="email" type="email" required autoComplete="email" className={field} data-testid="auth-email" />
          </label>
          <label className="block text-sm font-medium">
            Password
            <input
              name="password"
              type="password"
              required
              minLength={mode === "sign-up" ? 8 : undefined}
              maxLength={128}
              autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
              className={field}
              data-testid="auth-password"
            />
            {mode === "sign-up" ? <span className="mt-1 block text-xs font-normal text-neutral-600 dark:text-neutral-400">At least 8 characters.</span> : null}
          </label>
          {error ? (
            <p id={errorId} role="alert" data-testid="auth-error" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              {error}
            </p>
          ) : null}
          <button
            type="submit"
            disabled={busy}
            data-testid="auth-submit"
            className="min-h-11 w-full rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60 dark:bg-blue-600 dark:hover:bg-blue-700"
          >
            {busy ? copy.busy : copy.submit}
          </button>
        </form>
        <p className="mt-6 text-sm text-neutral-600 dark:text-neutral-400">
          {copy.other}{" "}
          <Link href={next ? `${copy.otherHref}?next=${encodeURIComponent(next)}` : copy.otherHref} className="text-blue-700 underline dark:text-blue-400" data-testid="auth-other">
            {copy.otherLabel}
          </Link>
        </p>
      </main>
    </div>
  );
}
