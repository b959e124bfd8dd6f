/** The Batches panel: one row per batch, sortable, with a "Problems only" filter. */
import { TableToggle } from "../common/TableToggle.tsx";
import { useCallback, useId, useMemo, useState } from "react";
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import { selectBatch } from "../state/actions.ts";
import type { LoadedInput } from "../state/app-state.ts";
import { batchSortKey, type BatchColumnId } from "./batch-rows.ts";
import { batchVerdict, formatCount, hexOffset, isProblemBatchAt } from "../common/cell-text.ts";
import { HEAVY_ORDER_ROWS, useIndexTable, useRowOrder, type IndexColumn } from "./index-table.ts";
import { buildOrder } from "./row-order.ts";
import { batchOfSelection } from "../common/selection-hooks.ts";
import { VirtualTable } from "./VirtualTable.tsx";
import { batchAt } from "../../core/view/frame-view.ts";
import type { ViewWindow } from "../state/view-window.ts";
import "./tables.css";

const DASH = "—";

function batchColumns(analysis: Analysis): IndexColumn[] {
  const b = (i: number): BatchModel => analysis.batches.at(i) as BatchModel;
  const col = (id: BatchColumnId, rest: Omit<IndexColumn, "id">): IndexColumn => ({ id, ...rest });
  return [
    col("index", { header: "#", width: 3.5, numeric: true, cell: (i) => i }),
    col("start", { header: "File offset", width: 7.5, numeric: true, cell: (i) => hexOffset(b(i).start), title: (i) => `bytes ${b(i).start}..${b(i).end}` }),
    col("partition", { header: "Partition", width: 6.5, numeric: true, cell: (i) => b(i).header?.partitionId.toString() ?? DASH }),
    col("baseOffset", { header: "Base offset", width: 7.5, grow: 1, numeric: true, cell: (i) => b(i).header?.baseOffset.toString() ?? DASH }),
    col("count", {
      header: "Messages",
      width: 6.5,
      numeric: true,
      cell: (i) => (b(i).header ? formatCount(b(i).header!.messageCount) : DASH),
      title: (i) => `message_count ${b(i).header?.messageCount ?? DASH}; ${formatCount(b(i).frameCount)} complete frames walked`,
    }),
    col("length", {
      header: "Length",
      width: 6.5,
      numeric: true,
      cell: (i) => b(i).header?.batchLength.toString() ?? DASH,
      title: () => "batch_length in bytes",
    }),
    col("stamped", { header: "Stamped", width: 6.5, cell: (i) => (b(i).header ? (b(i).stamped ? "stamped" : "producer") : DASH) }),
    col("verdict", {
      header: "Verdict",
      width: 10,
      grow: 2,
      cell: (i) => {
        const v = batchVerdict(b(i));
        return (
          <span className="tbl-badge" data-tone={v.tone}>
            {v.text}
          </span>
        );
      },
      title: (i) => batchVerdict(b(i)).text,
    }),
  ];
}

/** The Batches panel for a loaded input. */
export function BatchesTable({ input }: { input: LoadedInput }) {
  const { analysis } = input;
  const headingId = useId();
  const [problemsOnly, setProblemsOnly] = useState(false);
  const columns = useMemo(() => batchColumns(analysis), [analysis]);
  const { table, sorting } = useIndexTable(columns);
  const sort = sorting[0];
  const total = analysis.batches.length;

  const { order, busy } = useRowOrder(
    () =>
      buildOrder(
        0,
        total,
        problemsOnly ? (i) => isProblemBatchAt(analysis.batches, i) : null,
        sort ? { key: batchSortKey(sort.id as BatchColumnId, analysis), desc: sort.desc } : null,
      ),
    total > HEAVY_ORDER_ROWS && (problemsOnly || sort !== undefined),
    analysis,
    [analysis, total, problemsOnly, sort?.id, sort?.desc],
  );

  const rangeOf = useCallback(
    (i: number) => {
      const t = analysis.batches;
      return i >= 0 && i < t.length ? { start: t.start(i), end: t.end(i) } : null;
    },
    [analysis],
  );
  const onActivate = useCallback((i: number) => selectBatch(i, "table"), []);
  const rowTone = useCallback((i: number) => batchVerdict(analysis.batches.at(i) as BatchModel).tone, [analysis]);
  const inView = useCallback((w: ViewWindow | null) => (w && w.size === analysis.size ? batchAt(analysis, Math.floor((w.start + w.end) / 2)) : -1), [analysis]);

  return (
    <section className="panel tbl-panel" aria-labelledby={headingId}>
      <div className="tbl-bar">
        <h2 id={headingId} className="tbl-title">
          Batches
        </h2>
        <span className="tbl-count">
          {order.length === total ? `${formatCount(total)} batch${total === 1 ? "" : "es"}` : `${formatCount(order.length)} of ${formatCount(total)} batches`}
        </span>
        <TableToggle label="Problems only" checked={problemsOnly} onChange={setProblemsOnly} />
      </div>
      <VirtualTable
        label="Batches"
        table={table}
        columns={columns}
        order={order}
        busy={busy}
        selectedOf={batchOfSelection}
        rangeOf={rangeOf}
        onActivate={onActivate}
        rowTone={rowTone}
        followedOf={inView}
        emptyText={problemsOnly ? "No batch has an error or a warning." : "The input holds no batch."}
      />
    </section>
  );
}
