import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { connection } from "next/server";
import { parseTzOffset, TZ_COOKIE } from "@/lib/client/calendar-cookie";
import { documentTitleFor } from "@/lib/client/document-title";
import { standardSearchScan } from "@/lib/client/api-flavor";
import { titleModelSet } from "@/lib/client/title-model-setting";
import { AppShell } from "@/components/shell/AppShell";
import { Providers } from "@/components/providers";
import { usesRemoteServer } from "@/lib/server/remote";
import { loadFirstThreadPage, loadStarredPage, loadViewer, requestNow } from "./_data";
import "./globals.css";

export const metadata: Metadata = {
  title: documentTitleFor(null),
  description: "Chat with conversation titles done right",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#0a0a0a" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection(); // per-request: the list is live data
  const viewer = await loadViewer();
  // Signed out (accounts mode): only the sign-in and sign-up pages render, without the sidebar;
  // every other page redirects to sign-in itself (requireViewer).
  if (!viewer) {
    return (
      <html lang="en">
        <body className="min-h-dvh bg-white text-neutral-900 antialiased dark:bg-neutral-950 dark:text-neutral-100">{children}</body>
      </html>
    );
  }
  const [page, starred] = await Promise.all([loadFirstThreadPage(), loadStarredPage()]);
  const serverNow = requestNow();
  // Date groups are rendered in the browser's zone when it has told us (cookie), else ours.
  const tzOffsetMin = parseTzOffset((await cookies()).get(TZ_COOKIE)?.value) ?? -new Date(serverNow).getTimezoneOffset();
  return (
    // data-api / data-search-scan: in front of a LangGraph server the browser uses the standard API (lib/client/api-flavor);
    // data-title-model: a title model names conversations (lib/client/title-model-setting).
    <html
      lang="en"
      data-api={usesRemoteServer() ? "standard" : undefined}
      data-search-scan={standardSearchScan() ?? undefined}
      data-title-model={titleModelSet() ? "on" : undefined}
    >
      <body className="min-h-dvh bg-white text-neutral-900 antialiased dark:bg-neutral-950 dark:text-neutral-100">
        <Providers>
          <AppShell
            initialList={{ page, starred }}
            serverNow={serverNow}
            tzOffsetMin={tzOffsetMin}
            account={viewer.mode === "accounts" ? { id: viewer.id, name: viewer.name, email: viewer.email } : null}
          >
            {children}
          </AppShell>
        </Providers>
      </body>
    </html>
  );
}
