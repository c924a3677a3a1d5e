import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApiKeySettings } from "@/components/account/ApiKeySettings";
import { PageHeader } from "@/components/shell/PageHeader";
import { documentTitleFor } from "@/lib/client/document-title";
import { requireViewer } from "../../_data";

export const metadata: Metadata = { title: documentTitleFor("API keys") };

export default async function ApiKeysPage() {
  // Local mode needs no keys (nobody signs in): there is no such page.
  if ((await requireViewer()).mode !== "accounts") notFound();
  return (
    <>
      <PageHeader title="API keys" />
      <div className="min-h-0 flex-1 overflow-y-auto">
        <ApiKeySettings />
      </div>
    </>
  );
}
