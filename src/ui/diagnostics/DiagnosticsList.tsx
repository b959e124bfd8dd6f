/**
 * The diagnostics list (contracts.md §2): one item per finding; selecting one jumps to its bytes. Virtualized for
 * long lists. Each item's "Why?" discloses the help of its code (rule, server, causes, upstream, spec) under the list.
 */
import { visibleText } from "../../lib/text-escape.ts";
import { useMemo, useRef, useState } from "react";
import { DiagnosticHelp } from "./DiagnosticHelp.tsx";
import { useVirtualizer } from "@tanstack/react-virtual";
import { captureStore, partitionStore, type LoadedInput, type MessageRef, type OpenCapture, type OpenPartition } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { showPartitionFile } from "../session/loading.ts";
import { showCaptureMessage } from "../session/capture-session.ts";
import { findingLinks, messageKey } from "../common/message-index.ts";
import type { PageCapture } from "../../worker/protocol.ts";
import { hoverRange, selectRange } from "../state/actions.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { hexOffset } from "../../format/values.ts";

const ROW_HEIGHT = 44;
const hex = (n: number) => hexOffset(n, 6);

/**
 * A listed finding: of the input, of a partition's file (`file`), or of a capture (`at`, its message; `inMessage`
 * when its range lies within that message's bytes, false for a gap before it or a file-level finding).
 */
type Listed = Diagnostic & { readonly file?: string; readonly at?: MessageRef | null; readonly atKey?: string; readonly inMessage?: boolean };
const selectPartition = (p: OpenPartition | null) => p;
const selectCapture = (c: OpenCapture | null) => c;

/** A capture's findings as list items: each with the message it belongs to, or leads to (a gap between messages, a cut packet). */
function captureListed(capture: PageCapture): Listed[] {
  const linkOf = findingLinks(capture);
  return capture.diagnostics.map((d) => {
    const own = d.connection !== null && d.message !== null;
    const at = linkOf(d);
    return {
      code: d.code,
      severity: d.severity,
      start: d.start,
      end: d.end,
      batch: d.batch,
      frame: d.frame,
      message: d.text,
      at,
      atKey: at ? messageKey(at) : undefined,
      inMessage: own,
    };
  });
}

const sameRef = (a: MessageRef | null | undefined, b: MessageRef | null | undefined) => !!a && !!b && a.connection === b.connection && a.message === b.message;

// A finding in another file of the partition (or message of the capture) opens that first, then selects its bytes there.
async function jumpTo(d: Listed, shown: string | null, shownMessage: MessageRef | null): Promise<void> {
  if (d.file !== undefined && d.file !== shown && !(await showPartitionFile(d.file))) return;
  if (d.at !== undefined) {
    if (!d.at) return;
    if (!sameRef(d.at, shownMessage) && !(await showCaptureMessage(d.at))) return;
    if (!d.inMessage) return;
  }
  selectRange(d.start, Math.max(d.end, d.start + 1), "diagnostic");
}

interface ItemProps {
  d: Listed;
  index: number;
  setSize: number;
  offsetY: number;
  shown: string | null;
  shownMessage: MessageRef | null;
  /** Whether this item's help is open, and its toggle. */
  helpOpen: boolean;
  onHelp: () => void;
}

function DiagnosticItem({ d, index, setSize, offsetY, shown, shownMessage, helpOpen, onHelp }: ItemProps) {
  const jump = () => void jumpTo(d, shown, shownMessage);
  const here = (d.file === undefined || d.file === shown) && (d.at === undefined || (d.inMessage === true && sameRef(d.at, shownMessage)));
  return (
    <li
      className={`diag diag-${d.severity}`}
      data-code={d.code}
      data-severity={d.severity}
      data-file={d.file}
      data-message={d.atKey}
      aria-current={d.at && sameRef(d.at, shownMessage) ? "true" : undefined}
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
        <span className="diag-code" title={d.file !== undefined ? `${d.code} · ${visibleText(d.file)}` : undefined}>
          {d.code}
          {d.file !== undefined && <span className="diag-file"> · {visibleText(d.file)}</span>}
          {d.at !== undefined && (
            <span className="diag-file">
              {" "}
              · {d.at ? `${d.inMessage ? "" : d.code === "tcp-gap" ? "before " : "see "}message ${messageKey(d.at)}` : "capture file"}
            </span>
          )}
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

/**
 * The list of diagnostics of the loaded input, of every file of the open partition (each with data-file), or of
 * every message of the open capture (each with data-message), so it always lists what the status line counts.
 */
export function DiagnosticsList({ input }: { input: LoadedInput | null }) {
  const partition = useStore(partitionStore, selectPartition);
  const capture = useStore(captureStore, selectCapture);
  const captureFindings = capture?.capture;
  const captured = useMemo(() => (captureFindings ? captureListed(captureFindings) : null), [captureFindings]);
  const list: readonly Listed[] = partition ? partition.result.diagnostics : (captured ?? input?.analysis.diagnostics ?? []);
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
              shownMessage={capture?.shown ?? null}
              helpOpen={open === item.index}
              onHelp={() => setHelp({ list, index: open === item.index ? -1 : item.index })}
            />
          ))}
        </ul>
        {list.length === 0 && <p className="empty">{input || partition || capture ? "No findings: every check passed." : "Nothing loaded."}</p>}
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
