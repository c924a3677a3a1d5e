import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Threadline",
  description: "Chat with conversation titles done right",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh bg-white text-neutral-900 antialiased dark:bg-neutral-950 dark:text-neutral-100">
        {children}
      </body>
    </html>
  );
}
