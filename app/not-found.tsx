import Link from "next/link";

export default function NotFound() {
  return (
    <div className="grid flex-1 place-items-center p-8 text-center" data-testid="not-found">
      <div>
        <h1 className="text-lg font-semibold">Conversation not found</h1>
        <p className="mt-1 text-sm text-neutral-500">It may have been deleted.</p>
        <Link href="/" className="mt-4 inline-block text-sm text-blue-600 underline dark:text-blue-400">
          Start a new conversation
        </Link>
      </div>
    </div>
  );
}
