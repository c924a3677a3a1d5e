import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowsToMountNow, windowEdges } from "./list-window";

const win = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ index: from + i }));
const indexes = (items: readonly { index: number }[]) => items.map((v) => v.index);

describe("rowsToMountNow", () => {
  it("after a one-screen scroll mounts the rows on screen and keeps the ones already there, not the overscan", () => {
    // Was showing 0..29 (screen 0..21, overscan 8 below); scrolled to 22..43 on screen, 14..51 wanted.
    const mounted = win(0, 29);
    const wanted = win(14, 51);
    expect(indexes(rowsToMountNow(wanted, mounted, { startIndex: 22, endIndex: 43 }, -1))).toEqual(indexes(win(14, 43)));
  });

  it("a jump far away mounts only the screen; the kept Tab stop stays", () => {
    const mounted = [...win(0, 29)];
    const wanted = [{ index: 3 }, ...win(492, 529)];
    expect(indexes(rowsToMountNow(wanted, mounted, { startIndex: 500, endIndex: 521 }, 3))).toEqual([3, ...indexes(win(500, 521))]);
  });

  it("renders the whole window once the deferred render caught up, or before the scroller is measured", () => {
    const wanted = win(14, 51);
    expect(rowsToMountNow(wanted, wanted, { startIndex: 22, endIndex: 43 }, -1)).toBe(wanted);
    expect(rowsToMountNow(wanted, win(0, 29), null, -1)).toBe(wanted);
  });

  it("is exactly the wanted items that are on screen, already mounted or the Tab stop, in order", () => {
    const sorted = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b).map((index) => ({ index }));
    fc.assert(
      fc.property(
        fc.array(fc.nat(200), { maxLength: 60 }),
        fc.array(fc.nat(200), { maxLength: 60 }),
        fc.nat(200),
        fc.nat(40),
        fc.integer({ min: -1, max: 200 }),
        (w, m, start, span, keep) => {
          const wanted = sorted(w);
          const mounted = sorted(m);
          const onScreen = { startIndex: start, endIndex: start + span };
          const got = indexes(rowsToMountNow(wanted, mounted, onScreen, keep));
          const had = new Set(indexes(mounted));
          const expected = indexes(wanted).filter((i) => had.has(i) || (i >= start && i <= start + span) || i === keep);
          expect(got).toEqual(expected);
        },
      ),
    );
  });
});

describe("windowEdges", () => {
  it("leaves a kept Tab stop far from the window out of its edges", () => {
    expect(windowEdges([{ index: 3 }, ...win(500, 520)], 3)).toEqual({ first: 500, last: 520 });
    expect(windowEdges([...win(0, 20), { index: 900 }], 900)).toEqual({ first: 0, last: 20 });
  });

  it("counts a Tab stop next to the window, and a window of one", () => {
    expect(windowEdges(win(4, 20), 4)).toEqual({ first: 4, last: 20 });
    expect(windowEdges([{ index: 7 }], 7)).toEqual({ first: 7, last: 7 });
    expect(windowEdges([], -1)).toEqual({ first: -1, last: -1 });
  });
});
