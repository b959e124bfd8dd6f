/**
 * The diagnostics list (contracts.md §2): one item per finding; selecting one jumps to its bytes. Virtualized for
 * long lists. Each item's "Why?" discloses the help of its code (rule, server, causes, upstream, spec) under the list.
 */
import { visibleText } from "../../lib/text-escape.ts";
import { useRef, useState } from "react";
import { DiagnosticHelp } from "./DiagnosticHelp.tsx";
import { useVirtualizer } from "@tanstack/react-virtual";
import { partitionStore, type LoadedInput, type OpenPartition } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { showPartitionFile } from "../session/loading.ts";
import { hoverRange, selectRange } from "../state/actions.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { hexOffset } from "../../format/values.ts";

const ROW_HEIGHT = 44;
const hex = (n: number) => hexOffset(n, 6);

type Listed = Diagnostic & { readonly file?: string };
const selectPartition = (p: OpenPartition | null) => p;

// A finding in another file of the partition opens that file first, then selects its bytes there.
async function jumpTo(d: Listed, shown: string | null): Promise<void> {
  if (d.file !== undefined && d.file !== shown && !(await showPartitionFile(d.file))) return;
  selectRange(d.start, Math.max(d.end, d.start + 1), "diagnostic");
}

interface ItemProps {
  d: Listed;
  index: number;
  setSize: number;
  offsetY: number;
  shown: string | null;
  /** Whether this item's help is open, and its toggle. */
  helpOpen: boolean;
  onHelp: () => void;
}

function DiagnosticItem({ d, index, setSize, offsetY, shown, helpOpen, onHelp }: ItemProps) {
  const jump = () => void jumpTo(d, shown);
  const here = d.file === undefined || d.file === shown;
  return (
    <li
      className={`diag diag-${d.severity}`}
      data-code={d.code}
      data-severity={d.severity}
      data-file={d.file}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      style={{ transform: `translateY(${offsetY}px)` }}
      onMouseEnter={() => {
        if (here) hoverRange({ start: d.start, end: Math.max(d.end, d.start + 1) });
      }}
      onMouseLeave={() => hoverRange(null)}
    >
      <button type="button" onClick={jump} className="diag-jump">
        <span className="diag-sev" aria-hidden="true">
          {d.severity === "error" ? "✗" : d.severity === "warning" ? "!" : "i"}
        </span>
        <span className="diag-code">
          {d.code}
          {d.file !== undefined && <span className="diag-file"> · {visibleText(d.file)}</span>}
        </span>
        <span className="diag-range">
          {hex(d.start)}..{hex(d.end)}
        </span>
        <span className="diag-msg">{visibleText(d.message)}</span>
      </button>
      <button type="button" className="diag-why" aria-expanded={helpOpen} aria-controls="diag-help" aria-label={`Why ${d.code} matters`} onClick={onHelp}>
        Why?
      </button>
    </li>
  );
}

/** The list of diagnostics of the loaded input, or of every file of the open partition (each with data-file). */
export function DiagnosticsList({ input }: { input: LoadedInput | null }) {
  const partition = useStore(partitionStore, selectPartition);
  const list: readonly Listed[] = partition ? partition.result.diagnostics : (input?.analysis.diagnostics ?? []);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: list.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  // The finding whose help is open (by its place in the list), or -1.
  const [help, setHelp] = useState<{ list: readonly Listed[]; index: number }>({ list, index: -1 });
  const open = help.list === list ? help.index : -1;
  const helped = open >= 0 ? list[open] : undefined;
  return (
    <section className="panel diagnostics-panel" aria-labelledby="diagnostics-heading">
      <h2 id="diagnostics-heading">
        Diagnostics <span className="count">{list.length}</span>
      </h2>
      <div ref={scrollRef} className="diag-scroll" tabIndex={0} aria-label="Diagnostics, scrollable">
        <ul aria-label="Diagnostics" className="diag-list" style={{ height: list.length ? virtualizer.getTotalSize() : undefined }}>
          {items.map((item) => (
            <DiagnosticItem
              key={item.key}
              d={list[item.index]!}
              index={item.index}
              setSize={list.length}
              offsetY={item.start}
              shown={partition?.shown ?? null}
              helpOpen={open === item.index}
              onHelp={() => setHelp({ list, index: open === item.index ? -1 : item.index })}
            />
          ))}
        </ul>
        {list.length === 0 && <p className="empty">{input || partition ? "No findings: every check passed." : "Nothing loaded."}</p>}
      </div>
      {helped && (
        <div className="diag-help-box" id="diag-help" role="region" aria-label="Why this finding matters">
          <p className="diag-help-title">
            <code>{helped.code}</code> ({helped.severity}){helped.file !== undefined ? ` in ${helped.file}` : ""}
          </p>
          <DiagnosticHelp code={helped.code} />
        </div>
      )}
    </section>
  );
}
