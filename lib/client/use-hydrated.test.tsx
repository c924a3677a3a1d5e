import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { useHydrated } from "./use-hydrated";

function Probe() {
  return <span>{useHydrated() ? "live" : "server"}</span>;
}

describe("useHydrated", () => {
  it("is false in the server's render (the browser's side is covered by e2e/22: the composer takes typing once live)", () => {
    expect(renderToString(<Probe />)).toBe("<span>server</span>");
  });
});
