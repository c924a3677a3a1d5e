import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LockIcon, StarIcon, TrashIcon } from "./icons";

describe("icons", () => {
  it("come from lucide, decorative unless titled", () => {
    const plain = renderToStaticMarkup(<TrashIcon />);
    expect(plain).toContain("lucide-trash");
    expect(plain).toContain('aria-hidden="true"');
    expect(plain).toContain('width="16"');

    const titled = renderToStaticMarkup(<LockIcon title="Title pinned" />);
    expect(titled).toContain("lucide-lock");
    expect(titled).toContain('role="img"');
    expect(titled).toContain("<title>Title pinned</title>");
    expect(titled).not.toContain("aria-hidden");
  });

  it("fills the star when asked", () => {
    expect(renderToStaticMarkup(<StarIcon filled />)).toContain('fill="currentColor"');
    expect(renderToStaticMarkup(<StarIcon />)).toContain('fill="none"');
  });
});
