import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";

describe("Markdown", () => {
  it("renders GFM with fenced code blocks", () => {
    const html = renderToStaticMarkup(<Markdown text={"**Hi**\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |"} />);
    expect(html).toContain("<strong>Hi</strong>");
    expect(html).toMatch(/<pre[^>]*><code class="language-ts" data-testid="code-block">const x = 1;\n<\/code><\/pre>/);
    expect(html).toContain("<table");
  });

  it("never renders raw HTML from the text", () => {
    const html = renderToStaticMarkup(<Markdown text={'<img src=x onerror=alert(1)> <script>alert(2)</script>'} />);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
  });

  it("opens links safely", () => {
    const html = renderToStaticMarkup(<Markdown text={"[x](https://example.com)"} />);
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
  });
});
