/** The diagnostics list (contracts.md §2): one item per finding; selecting one jumps to its bytes. Virtualized for long lists. */
import { useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { LoadedInput } from "../state/app-state.ts";
import { hoverRange, selectRange } from "../state/actions.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";

const ROW_HEIGHT = 44;
const hex = (n: number) => "0x" + n.toString(16).padStart(6, "0");

function DiagnosticItem({ d, index, setSize, offsetY }: { d: Diagnostic; index: number; setSize: number; offsetY: number }) {
  const jump = () => selectRange(d.start, Math.max(d.end, d.start + 1), "diagnostic");
  return (
    <li className={`diag diag-${d.severity}`} data-code={d.code} data-severity={d.severity} aria-posinset={index + 1} aria-setsize={setSize}
      style={{ transform: `translateY(${offsetY}px)` }}
      onMouseEnter={() => hoverRange({ start: d.start, end: Math.max(d.end, d.start + 1) })} onMouseLeave={() => hoverRange(null)}>
      <button type="button" onClick={jump} className="diag-jump">
        <span className="diag-sev" aria-hidden="true">{d.severity === "error" ? "✗" : d.severity === "warning" ? "!" : "i"}</span>
        <span className="diag-code">{d.code}</span>
        <span className="diag-range">{hex(d.start)}..{hex(d.end)}</span>
        <span className="diag-msg">{d.message}</span>
      </button>
    </li>
  );
}

/** The list of diagnostics of the loaded input. */
export function DiagnosticsList({ input }: { input: LoadedInput | null }) {
  const list = input?.analysis.diagnostics ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: list.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  return (
    <section className="panel diagnostics-panel" aria-labelledby="diagnostics-heading">
      <h2 id="diagnostics-heading">Diagnostics <span className="count">{list.length}</span></h2>
      <div ref={scrollRef} className="diag-scroll" tabIndex={0} aria-label="Diagnostics, scrollable">
        <ul aria-label="Diagnostics" className="diag-list" style={{ height: list.length ? virtualizer.getTotalSize() : undefined }}>
          {items.map((item) => (
            <DiagnosticItem key={item.key} d={list[item.index]!} index={item.index} setSize={list.length} offsetY={item.start} />
          ))}
        </ul>
        {list.length === 0 && <p className="empty">{input ? "No findings: every check passed." : "Nothing loaded."}</p>}
      </div>
    </section>
  );
}
