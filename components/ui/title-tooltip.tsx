import type { TitleSource } from "@/lib/title";
import { describeTitleSource } from "@/lib/client/title-source-label";

/**
 * A tooltip's body for a title: the whole title (rows and the header truncate it), then where it
 * came from, then what else the place showing it has to say (`note`).
 */
export function TitleTooltipBody({ title, source, note }: { title: string; source: TitleSource | null; note?: string }) {
  return (
    <span className="block" data-testid="title-tooltip">
      <bdi className="block font-medium [overflow-wrap:anywhere]" data-testid="title-tooltip-title">
        {title}
      </bdi>
      <span className="block" data-testid="title-tooltip-provenance">
        {describeTitleSource(source)}
      </span>
      {note ? (
        <span className="block italic" data-testid="title-tooltip-note">
          {note}
        </span>
      ) : null}
    </span>
  );
}
