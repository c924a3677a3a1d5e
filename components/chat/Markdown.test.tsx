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

  it("loads no image by itself: a placeholder names the host instead", () => {
    const html = renderToStaticMarkup(<Markdown text={"Look: ![chart](https://tracker.example/p.png?leak=secret) and ![](/local.png)"} />);
    expect(html).not.toContain("<img");
    expect(html).not.toMatch(/src=/);
    expect(html.match(/data-testid="image-placeholder"/g)).toHaveLength(2);
    expect(html).toContain("Image “chart” from tracker.example");
    expect(html).toContain("from this site");
  });
});
