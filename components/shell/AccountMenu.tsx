"use client";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { AccountError, signOut } from "@/lib/client/account";
import { KeyIcon, SignOutIcon } from "@/components/ui/icons";

export interface SignedInAccount {
  id: string;
  name: string;
  email: string;
}

const item =
  "flex min-h-11 w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-neutral-200 md:min-h-9 dark:hover:bg-neutral-800";

/** The sidebar's foot in accounts mode: who is signed in, their API keys, sign out. */
export function AccountMenu({ account, onNavigate }: { account: SignedInAccount; onNavigate?: () => void }) {
  const [leaving, setLeaving] = useState(false);
  async function leave() {
    setLeaving(true);
    try {
      await signOut();
      // A full load on purpose: the list cache and every open stream of this person go with the page.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/sign-in");
    } catch (err) {
      setLeaving(false);
      toast.error(err instanceof AccountError ? err.message : "Could not sign out. Check your connection and try again.");
    }
  }
  return (
    <div className="border-t border-neutral-200 px-2 py-2 dark:border-neutral-800" data-testid="account-menu">
      <div className="px-3 pb-1 pt-1">
        <p className="truncate text-sm font-medium" data-testid="account-name">
          {account.name || account.email}
        </p>
        <p className="truncate text-xs text-neutral-600 dark:text-neutral-400" data-testid="account-email">
          {account.email}
        </p>
      </div>
      <ul>
        <li>
          <Link href="/settings/keys" className={item} onClick={onNavigate} data-testid="api-keys-link">
            <KeyIcon /> API keys
          </Link>
        </li>
        <li>
          <button type="button" className={item} onClick={leave} disabled={leaving} data-testid="sign-out">
            <SignOutIcon /> {leaving ? "Signing out…" : "Sign out"}
          </button>
        </li>
      </ul>
    </div>
  );
}
