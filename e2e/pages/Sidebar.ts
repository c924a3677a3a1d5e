import { expect, type Locator, type Page } from "@playwright/test";

type RenameHow = "double-click" | "f2" | "menu";

/** The conversation list in the desktop sidebar (or the drawer, with `root`). */
export class Sidebar {
  readonly root: Locator;
  readonly search: Locator;
  readonly rows: Locator;
  readonly groups: Locator;
  readonly editor: Locator;
  readonly editorError: Locator;
  readonly scroller: Locator;

  constructor(
    readonly page: Page,
    root?: Locator,
  ) {
    this.root = root ?? page.getByTestId("sidebar");
    this.search = this.root.getByTestId("thread-search");
    this.rows = this.root.getByTestId("thread-row");
    this.groups = this.root.getByTestId("date-group");
    this.editor = this.root.getByTestId("title-input");
    this.editorError = this.root.getByTestId("title-error");
    this.scroller = this.root.getByTestId("thread-scroll");
  }

  row(threadId: string): Locator {
    return this.root.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`);
  }

  rowTitle(threadId: string): Locator {
    return this.row(threadId).getByTestId("thread-title");
  }

  rowLock(threadId: string): Locator {
    return this.row(threadId).getByTestId("title-lock");
  }

  link(threadId: string): Locator {
    return this.row(threadId).getByTestId("thread-link");
  }

  menuButton(threadId: string): Locator {
    return this.row(threadId).getByTestId("row-menu-button");
  }

  /** The open tooltip (row or header): the whole title, then its provenance. */
  tooltip(): { title: Locator; provenance: Locator } {
    // Radix renders the body twice: the visible one first, then a hidden copy for screen readers.
    const tip = this.page.getByTestId("tooltip");
    return {
      title: tip.getByTestId("title-tooltip-title").first(),
      provenance: tip.getByTestId("title-tooltip-provenance").first(),
    };
  }

  async openMenu(threadId: string) {
    const row = this.row(threadId);
    await row.hover();
    await row.getByTestId("row-menu-button").click();
    await expect(this.page.getByTestId("row-menu")).toBeVisible();
  }

  async menuItem(threadId: string, item: "menu-rename" | "menu-star" | "menu-title-history" | "menu-regenerate" | "menu-delete") {
    await this.openMenu(threadId);
    await this.page.getByTestId(item).click();
  }

  async startEditing(threadId: string, how: RenameHow = "double-click") {
    if (how === "double-click") await this.rowTitle(threadId).dblclick();
    else if (how === "f2") {
      const link = this.row(threadId).getByTestId("thread-link");
      await link.focus();
      await expect(link).toBeFocused();
      await this.page.keyboard.press("F2");
    } else await this.menuItem(threadId, "menu-rename");
    await expect(this.editor).toBeVisible();
    await expect(this.editor).toBeFocused();
  }

  async rename(threadId: string, title: string, how: RenameHow = "double-click") {
    await this.startEditing(threadId, how);
    await this.editor.fill(title);
    await this.editor.press("Enter");
    await expect(this.editor).toBeHidden();
  }
}
