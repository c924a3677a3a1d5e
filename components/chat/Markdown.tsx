"use client";
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { RemoteImage } from "./RemoteImage";

const components: Components = {
  pre: ({ children }) => (
    <pre className="my-3 overflow-x-auto rounded-lg bg-neutral-900 p-3 text-[13px] leading-relaxed text-neutral-100 dark:bg-black/60">
      {children}
    </pre>
  ),
  code: ({ className, children }) =>
    className?.startsWith("language-") ? (
      <code className={className} data-testid="code-block">
        {children}
      </code>
    ) : (
      <code className="rounded bg-neutral-200/70 px-1 py-0.5 text-[0.9em] dark:bg-neutral-800">{children}</code>
    ),
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-blue-600 underline dark:text-blue-400">
      {children}
    </a>
  ),
  img: ({ src, alt }) => <RemoteImage src={typeof src === "string" ? src : undefined} alt={alt} />,
  table: ({ children }) => (
    <div className="my-3 overflow-x-auto">
      <table className="border-collapse text-sm [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_td]:border-neutral-300 [&_th]:border-neutral-300 dark:[&_td]:border-neutral-700 dark:[&_th]:border-neutral-700">
        {children}
      </table>
    </div>
  ),
};

/**
 * Assistant text as GitHub-flavoured markdown. Raw HTML in the text is NOT rendered (no
 * rehype-raw), so model output can't inject markup, and images wait for a click (RemoteImage).
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="prose-chat space-y-3 break-words leading-relaxed [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_blockquote]:border-l-4 [&_blockquote]:border-neutral-300 [&_blockquote]:pl-3 [&_blockquote]:text-neutral-600 dark:[&_blockquote]:text-neutral-400">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
