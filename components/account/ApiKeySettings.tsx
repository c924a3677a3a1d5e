"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { AccountError, createKey, listKeys, revokeKey, type ApiKeyInfo } from "@/lib/client/account";
import { TrashIcon } from "@/components/ui/icons";

const KEYS = ["account", "api-keys"] as const;
const messageOf = (err: unknown) => (err instanceof AccountError ? err.message : "Could not reach the server. Try again.");

/** Create (the key is shown once), list and revoke the signed-in person's API keys. */
export function ApiKeySettings() {
  const qc = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState("");
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const keys = useQuery({ queryKey: KEYS, queryFn: listKeys, staleTime: 0 });
  const create = useMutation({
    mutationFn: (n: string) => createKey(n),
    onSuccess: (made) => {
      setFresh({ name: made.name, key: made.key });
      setName("");
      void qc.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revoke = useMutation({
    mutationFn: (k: ApiKeyInfo) => revokeKey(k.id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEYS }),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  }

  return (
    <div className="mx-auto w-full max-w-2xl space-y-8 p-4 md:p-8" data-testid="api-keys">
      <p className="text-sm text-neutral-700 dark:text-neutral-300">
        An API key lets a program (the LangGraph SDK, a proxy) use your conversations without signing in. Send it as{" "}
        <code className="rounded bg-neutral-100 px-1 dark:bg-neutral-800">x-api-key</code> or{" "}
        <code className="rounded bg-neutral-100 px-1 dark:bg-neutral-800">Authorization: Bearer</code>.
      </p>

      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor={nameId} className="block text-sm font-medium">
            Key name
          </label>
          <input
            id={nameId}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={60}
            placeholder="e.g. laptop script"
            data-testid="key-name"
            className="mt-1 block min-h-11 w-full rounded-md border border-neutral-300 bg-white px-3 py-2 text-sm placeholder:text-neutral-500 focus:border-blue-600 focus:outline-2 focus:outline-blue-600 dark:border-neutral-700 dark:bg-neutral-900 dark:placeholder:text-neutral-400"
          />
        </div>
        <button
          type="submit"
          disabled={!name.trim() || create.isPending}
          data-testid="create-key"
          className="min-h-11 rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60 dark:bg-blue-600 dark:hover:bg-blue-700"
        >
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {create.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {messageOf(create.error)}
        </p>
      ) : null}

      {fresh ? (
        <div role="status" data-testid="new-key" className="rounded-md border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950">
          <p className="text-sm font-medium text-green-900 dark:text-green-100">
            Copy the key “{fresh.name}” now: it is shown only once.
          </p>
          <code data-testid="new-key-value" className="mt-2 block select-all break-all rounded bg-white px-2 py-1 font-mono text-sm text-neutral-900 dark:bg-neutral-900 dark:text-neutral-100">
            {fresh.key}
          </code>
          <button type="button" onClick={() => setFresh(null)} className="mt-2 min-h-11 text-sm text-green-900 underline md:min-h-0 dark:text-green-100">
            I have copied it
          </button>
        </div>
      ) : null}

      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading" className="text-base font-semibold">
          Your keys
        </h2>
        {keys.isPending ? <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">Loading…</p> : null}
        {keys.isError ? (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
            {messageOf(keys.error)}
          </p>
        ) : null}
        {keys.data && keys.data.length === 0 ? (
          <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400" data-testid="no-keys">
            No API keys yet.
          </p>
        ) : null}
        <ul className="mt-2 divide-y divide-neutral-200 dark:divide-neutral-800">
          {keys.data?.map((k) => (
            <li key={k.id} className="flex items-center gap-3 py-2" data-testid="key-row" data-key-id={k.id}>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{k.name}</p>
                <p className="text-xs text-neutral-600 dark:text-neutral-400">
                  ends in <span className="font-mono">…{k.last_four}</span> · created {new Date(k.created_at).toLocaleDateString()}
                </p>
              </div>
              <button
                type="button"
                onClick={() => revoke.mutate(k)}
                disabled={revoke.isPending}
                data-testid="revoke-key"
                aria-label={`Revoke ${k.name}`}
                className="flex min-h-11 items-center gap-1 rounded-md border border-neutral-300 px-3 py-1 text-sm text-red-700 hover:bg-red-50 md:min-h-9 dark:border-neutral-700 dark:text-red-300 dark:hover:bg-red-950"
              >
                <TrashIcon /> Revoke
              </button>
            </li>
          ))}
        </ul>
        {revoke.isError ? (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
            {messageOf(revoke.error)}
          </p>
        ) : null}
      </section>
    </div>
  );
}
