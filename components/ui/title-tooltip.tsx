import type { TitleSource } from "@/lib/title";
import { describeTitleSource } from "@/lib/client/title-source-label";

/** A tooltip's body for a title: the whole title (rows and the header truncate it), then where it came from. */
export function TitleTooltipBody({ title, source }: { title: string; source: TitleSource | null }) {
  return (
    <span className="block" data-testid="title-tooltip">
      <bdi className="block font-medium [overflow-wrap:anywhere]" data-testid="title-tooltip-title">
        {title}
      </bdi>
      <span className="block" data-testid="title-tooltip-provenance">
        {describeTitleSource(source)}
      </span>
    </span>
  );
}
