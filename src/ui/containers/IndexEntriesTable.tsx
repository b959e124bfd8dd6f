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
  const [paged, setPaged] = useState<{ of: IndexEntries | null | undefined; first: number }>({ of: entries, first: 0 });
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
  const turn = (to: number) => setPaged({ of: entries, first: Math.max(0, Math.min(to, total - 1)) });
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
                // The page that holds entry n, so its row shows among the ones before and after it.
                if (Number.isFinite(n)) turn(Math.max(0, n) - (Math.max(0, n) % ENTRY_PAGE_ROWS));
              }}
            />
          </label>
        </div>
      ) : null}
      <div className="table-scroll" aria-busy={!atHand}>
        {atHand ? null : <p className="index-reading">Reading these entries…</p>}
        <table className="index-table" aria-label="Index entries">
          <thead>
            <tr>
              <th>#</th>
              <th>Offset</th>
              <th>Timestamp</th>
              <th>Position</th>
              <th>Check</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.index} data-entry={r.index}>
                <td>
                  {isIndex ? (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => selectRange(r.start, r.start + 24, "table")}
                      title="Select this entry's 24 bytes"
                    >
                      {r.index}
                    </button>
                  ) : (
                    r.index
                  )}
                </td>
                <td>{r.offset}</td>
                <td>{r.timestamp}</td>
                <td>
                  <button
                    type="button"
                    disabled={!canJump}
                    onClick={() => void goToBatch(input, r.position)}
                    title={canJump ? "Go to the batch this entry points at" : "Open the .log with this index to go to its batches"}
                  >
                    Go to batch at {r.position}
                  </button>
                </td>
                <td className={`tone-${r.ok ? "ok" : "bad"}`}>{r.check}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
