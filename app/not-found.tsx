import type { Metadata } from "next";
import Link from "next/link";
import { documentTitleFor, PAGE_NOT_FOUND } from "@/lib/client/document-title";

export const metadata: Metadata = { title: documentTitleFor(PAGE_NOT_FOUND), robots: { index: false } };

/** Any path the app does not have (a missing conversation has its own page under /c/). */
export default function NotFound() {
  return (
    <div className="grid flex-1 place-items-center p-8 text-center" data-testid="not-found">
      <div>
        <h1 className="text-lg font-semibold">404 · {PAGE_NOT_FOUND}</h1>
        <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">There is nothing at this address.</p>
        <Link href="/" className="mt-4 inline-block text-sm text-blue-700 underline dark:text-blue-400">
          Go to Threadline
        </Link>
      </div>
    </div>
  );
}
