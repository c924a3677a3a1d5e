import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/shell/PageHeader";
import { CONVERSATION_NOT_FOUND, documentTitleFor } from "@/lib/client/document-title";

export const metadata: Metadata = { title: documentTitleFor(CONVERSATION_NOT_FOUND), robots: { index: false } };

/** `/c/<id>` for a thread that does not exist (never did, or deleted): inside the app, not a dead end. */
export default function ConversationNotFound() {
  return (
    <>
      <PageHeader title={CONVERSATION_NOT_FOUND} />
      <div className="grid flex-1 place-items-center p-8 text-center" data-testid="conversation-not-found">
        <div>
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            This conversation does not exist. It may have been deleted, or the link is wrong.
          </p>
          <Link href="/" className="mt-4 inline-block text-sm text-blue-700 underline dark:text-blue-400">
            Start a new conversation
          </Link>
        </div>
      </div>
    </>
  );
}
