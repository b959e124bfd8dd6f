/**
 * Index entries (offset, timestamp, position) with their cross-check: shown for an .index file, and for a
 * segment opened with its .index. Choosing an entry goes to the batch it points at, opening the .log if needed.
 */
import { useEffect, useMemo, useState } from "react";
import type { LoadedInput, OpenPartition } from "../state/app-state.ts";
import { documentStore } from "../state/app-state.ts";
import { selectBatch, selectRange } from "../state/actions.ts";
import { openCompanion } from "../session/loading.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { entryRows } from "./partition-rows.ts";
import { batchStartsOf, checkIndexEntries, type IndexEntries, type IndexLogView } from "../../core/containers/index.ts";
import { formatCount } from "../common/cell-text.ts";
import { entriesAtHand, loadEntries } from "../session/index-pages.ts";
import { IndexEntryRows } from "./IndexEntryRows.tsx";

/** Entries listed at once: an index of single-message batches has an entry per batch, millions of rows. */
export const ENTRY_PAGE_ROWS = 500;

// The batch starting exactly at `position` in the shown log, or the byte there when no batch starts at it.
function goToPosition(position: number): void {
  const input = documentStore.get().input;
  if (!input) return;
  const batch = input.analysis.batches.startingAt(position);
  if (batch >= 0) selectBatch(batch, "table");
  else selectRange(position, position + 1, "table");
}

async function goToBatch(input: LoadedInput, position: number): Promise<void> {
  if (input.meta?.format === "index" && !(await openCompanion())) return;
  goToPosition(position);
}

/** The entries table, or nothing when the shown input has no index entries. */
export function IndexEntriesTable({ input, partition }: { input: LoadedInput; partition: OpenPartition | null }) {
  const isIndex = input.meta?.format === "index";
  const entries = isIndex ? input.meta?.entries : input.companionEntries;
  const indexName = isIndex ? (input.fileName ?? input.name) : input.companion;
  // Kept findings list the first of an index's (an orphan's or a trailing partial entry's among them); the entry
  // rules are run again over the rows shown, so entry 40,000,000 of a 1 GiB index shows its finding too.
  const kept = useMemo((): readonly Diagnostic[] => {
    if (isIndex) return input.analysis.diagnostics;
    return partition ? partition.result.diagnostics.filter((d) => d.file === indexName) : [];
  }, [isIndex, input.analysis, partition, indexName]);
  const log = useMemo((): IndexLogView | undefined => {
    if (isIndex) return input.meta?.indexLog;
    if (!entries) return undefined;
    return { name: input.fileName ?? input.name, size: input.analysis.size, starts: batchStartsOf(input.analysis) };
  }, [isIndex, entries, input.meta, input.fileName, input.name, input.analysis]);
  const total = entries?.length ?? 0;
  // The page is kept per list of entries: another input starts again at its first entry.
  const [paged, setPaged] = useState<{ of: IndexEntries | null | undefined; first: number; shown: number }>({ of: entries, first: 0, shown: -1 });
  const [scrollEl, setScrollEl] = useState<HTMLDivElement | null>(null);
  const first = paged.of === entries ? Math.min(paged.first, Math.max(0, total - 1)) : 0;
  // A large index is read in pages (session/index-pages.ts): its rows wait for theirs.
  const [landed, setLanded] = useState(0);
  // The entry before the first row too: the rows' order checks compare with it.
  const from = Math.max(0, first - 1);
  const atHand = !entries || entriesAtHand(entries, from, first + ENTRY_PAGE_ROWS - from);
  useEffect(() => {
    if (!entries || entriesAtHand(entries, from, first + ENTRY_PAGE_ROWS - from)) return;
    let live = true;
    void loadEntries(entries, from, first + ENTRY_PAGE_ROWS - from).then(() => live && setLanded((n) => n + 1));
    return () => {
      live = false;
    };
  }, [entries, first, from]);
  const rows = useMemo(() => {
    if (!atHand || !entries) return [];
    const shown = checkIndexEntries(entries, log, first, first + ENTRY_PAGE_ROWS);
    return entryRows(entries, [...kept, ...shown], first, ENTRY_PAGE_ROWS);
    // `landed` re-reads the rows once their page is read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entries, kept, log, first, atHand, landed]);
  if (!entries) return null;
  const turn = (to: number, shown = -1) => setPaged({ of: entries, first: Math.max(0, Math.min(to, total - 1)), shown });
  // The row "Go to entry" asked for, else the page's first (a new page starts at its top).
  const reveal = paged.of === entries && paged.shown >= first ? paged.shown - first : 0;
  const canJump = !isIndex || input.companion !== null;
  return (
    <section className="panel index-panel" aria-labelledby="index-heading">
      <h2 id="index-heading">
        Index entries <span className="count">{formatCount(total)}</span> <span className="index-name">{indexName}</span>
      </h2>
      {total > ENTRY_PAGE_ROWS ? (
        <div className="index-pages">
          <button type="button" disabled={first === 0} onClick={() => turn(first - ENTRY_PAGE_ROWS)}>
            Previous entries
          </button>
          <span>
            Entries {formatCount(first)}–{formatCount(Math.min(first + ENTRY_PAGE_ROWS, total) - 1)} of {formatCount(total)}
          </span>
          <button type="button" disabled={first + ENTRY_PAGE_ROWS >= total} onClick={() => turn(first + ENTRY_PAGE_ROWS)}>
            Next entries
          </button>
          <label>
            Go to entry{" "}
            <input
              type="number"
              min={0}
              max={total - 1}
              step={1}
              className="index-goto"
              onKeyDown={(e) => {
                if (e.key !== "Enter") return;
                const n = Math.floor(Number(e.currentTarget.value));
                // The page that holds entry n, scrolled to its row.
                if (!Number.isFinite(n)) return;
                const entry = Math.max(0, Math.min(n, total - 1));
                turn(entry - (entry % ENTRY_PAGE_ROWS), entry);
              }}
            />
          </label>
        </div>
      ) : null}
      <div className="table-scroll" aria-busy={!atHand} ref={setScrollEl}>
        {atHand ? null : <p className="index-reading">Reading these entries…</p>}
        <table className="index-table" aria-label="Index entries" aria-rowcount={rows.length + 1}>
          <thead>
            <tr>
              <th>#</th>
              <th>Offset</th>
              <th>Timestamp</th>
              <th>Position</th>
              <th>Check</th>
            </tr>
          </thead>
          <IndexEntryRows
            rows={rows}
            scrollEl={scrollEl}
            selectable={isIndex}
            canJump={canJump}
            onSelect={(r) => selectRange(r.start, r.start + 24, "table")}
            onJump={(r) => void goToBatch(input, r.position)}
            reveal={reveal}
          />
        </table>
      </div>
    </section>
  );
}
