import { afterEach, describe, expect, it } from "vitest";
import { fallbackTitle } from "@/lib/title";
import { attachmentBlock, readAttachment } from "@/lib/client/attachments";
import { createHarness, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

const PDF = Buffer.from("%PDF-1.4\n" + "x".repeat(3000));
const LEAN = { select: ["thread_id"] as "thread_id"[], extract: { title: "values.title", title_source: "values.title_source" } };

async function pdfBlock() {
  return attachmentBlock(await readAttachment(new File([PDF], "report.pdf", { type: "application/pdf" })));
}

describe("a message with files, through the API as the browser sends it", () => {
  it("is stored as sent (standard blocks, name and size) and comes back whole", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    const block = await pdfBlock();
    await h.client.runs.wait(t.thread_id, "agent", { input: { messages: [{ type: "human", content: [{ type: "text", text: "Read this" }, block] }] } });
    const state = await h.client.threads.getState<{ messages: { type: string; content: unknown }[] }>(t.thread_id);
    expect(state.values.messages[0]).toMatchObject({ type: "human", content: [{ type: "text", text: "Read this" }, block] });
  });

  it("titles from the text beside the files, or from the files alone; no list row carries the bytes", async () => {
    h = createHarness();
    const withText = await h.client.threads.create();
    const filesOnly = await h.client.threads.create();
    const block = await pdfBlock();
    await h.client.runs.wait(withText.thread_id, "agent", { input: { messages: [{ type: "human", content: [{ type: "text", text: "Summarise the report" }, block] }] } });
    await h.client.runs.wait(filesOnly.thread_id, "agent", { input: { messages: [{ type: "human", content: [block] }] } });
    const rows = await h.client.threads.search({ ...LEAN, ids: [withText.thread_id, filesOnly.thread_id] });
    const titleOf = (id: string) => (rows.find((r) => r.thread_id === id)?.extracted as { title: string }).title;
    expect(titleOf(withText.thread_id)).toBe(fallbackTitle("Summarise the report"));
    const base64 = PDF.toString("base64");
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(base64.slice(0, 40));
    expect(titleOf(filesOnly.thread_id)).toBe("report.pdf");
  });
});
