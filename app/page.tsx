export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Threadline</h1>
      <p className="mt-2 text-neutral-600 dark:text-neutral-400">The chat view arrives with the web app issue.</p>
    </main>
  );
}
