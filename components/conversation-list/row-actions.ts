import type { RenameResult } from "@/lib/client/use-title-actions";
import type { EditorExit, KeptEdit } from "./TitleEditor";

/** Callbacks every row shares (one stable object, so memoised rows don't re-render for it). */
export interface RowActions {
  startEdit: (threadId: string) => void;
  endEdit: (threadId: string, exit: EditorExit) => void;
  /** An open editor removed by a remount of its row keeps its text here; the next one resumes it. */
  keepEdit: (threadId: string, edit: KeptEdit) => void;
  resumeEdit: (threadId: string) => KeptEdit | null;
  rename: (threadId: string, raw: string) => Promise<RenameResult>;
  setStarred: (threadId: string, starred: boolean) => void;
  regenerate: (threadId: string) => void;
  remove: (threadId: string, title: string) => void;
  /** A row's "…" button was pressed: open, move or close the list's menu (see RowMenuButton). */
  menuPress: (threadId: string, button: HTMLElement, how: "toggle" | "open") => void;
  /** A row link was followed (closes the mobile drawer). */
  navigated: () => void;
}
