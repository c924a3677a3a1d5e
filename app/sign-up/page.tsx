import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/account/AuthForm";
import { documentTitleFor } from "@/lib/client/document-title";
import { loadViewer } from "../_data";

export const metadata: Metadata = { title: documentTitleFor("Create an account") };

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignUpPage({ searchParams }: Props) {
  // Signed in already, or local mode (nobody signs in): straight to the app.
  if (await loadViewer()) redirect("/");
  const { next } = await searchParams;
  return <AuthForm mode="sign-up" next={typeof next === "string" ? next : null} />;
}
