/**
 * The Messages view of a network capture (contracts.md §2): its connections (bytes, messages, gaps), then
 * a virtualized grid named "Messages" with one row per protocol message in capture order, each row
 * `data-message="<conn>:<index>"`; filters by connection, direction, command/operation and "Problems only".
 * Choosing a row (click, Enter) shows that message; ← / → in the grid step to the previous / next row.
 */
import { useCallback, useId, useMemo, useState, type KeyboardEvent } from "react";
import { captureStore, type OpenCapture } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { captureIndex, showCaptureMessage } from "../session/capture-session.ts";
import { messageKey, type MessageIndex } from "../common/message-index.ts";
import { TableToggle } from "../common/TableToggle.tsx";
import { formatCount } from "../common/cell-text.ts";
import { HEAVY_ORDER_ROWS, useIndexTable, useRowOrder, type IndexColumn } from "./index-table.ts";
import { buildOrder, type SortKey } from "./row-order.ts";
import { VirtualTable } from "./VirtualTable.tsx";
import { plural } from "../../format/values.ts";
import { QUIC_PORT } from "../../core/containers/capture/index.ts";
import {
  ALL_MESSAGES,
  batchesText,
  commandChoices,
  commandText,
  findingsText,
  findingsTone,
  keepOf,
  keepsAll,
  latencyText,
  statusText,
  timeText,
  type MessageFilter,
} from "./message-rows.ts";

const selectCapture = (c: OpenCapture | null) => c;
const noRange = () => null;

function messageColumns(index: MessageIndex, digits: number): IndexColumn[] {
  const m = (id: number) => index.at(id).msg;
  return [
    { id: "connection", header: "Conn", width: 3.5, numeric: true, sortable: false, cell: (id) => index.at(id).conn.index },
    {
      id: "packet",
      header: "Packet",
      width: 4.5,
      numeric: true,
      cell: (id) => m(id).packet,
      title: () => "the packet holding its first byte (1-based, as Wireshark numbers them)",
    },
    { id: "time", header: "Time", width: 9.5, sortable: false, cell: (id) => timeText(index, id, digits) },
    {
      id: "direction",
      header: "Dir",
      width: 3,
      sortable: false,
      cell: (id) => (m(id).toServer ? "→" : "←"),
      title: (id) => (m(id).toServer ? "client → server" : "server → client"),
    },
    {
      id: "command",
      header: "Command / operation",
      width: 12,
      grow: 2,
      sortable: false,
      cell: (id) => commandText(index, id),
      title: (id) => m(id).detail || undefined,
    },
    {
      id: "size",
      header: "Size",
      width: 5.5,
      numeric: true,
      cell: (id) => (m(id).size === null ? "?" : m(id).size),
      title: (id) => (m(id).complete ? undefined : "not captured whole"),
    },
    { id: "status", header: "Status", width: 6, grow: 1, sortable: false, cell: (id) => statusText(index, id) },
    { id: "latency", header: "Latency", width: 6, numeric: true, cell: (id) => latencyText(index, id), title: () => "reply time − request time" },
    { id: "batches", header: "Batches", width: 7.5, sortable: false, cell: (id) => batchesText(index, id) },
    {
      id: "findings",
      header: "Findings",
      width: 7,
      grow: 1,
      cell: (id) => {
        const text = findingsText(index, id);
        return text ? (
          <span className="tbl-badge" data-tone={findingsTone(index, id)}>
            {text}
          </span>
        ) : (
          ""
        );
      },
    },
  ];
}

function sortKeyOf(column: string, index: MessageIndex): SortKey {
  const m = (id: number) => index.at(id).msg;
  switch (column) {
    case "size":
      return { primary: (id) => m(id).size ?? -1 };
    case "latency":
      return { primary: (id) => (m(id).toServer ? -1 : (m(id).latencyMicros ?? -1)) };
    case "findings":
      return {
        primary: (id) => {
          const f = index.findings(id);
          return f.errors * 1e12 + f.warnings * 1e6 + f.infos;
        },
      };
    default:
      return { primary: (id) => m(id).packet };
  }
}

/** The connections of the capture: endpoints, bytes each way, messages and gaps; choosing one filters the table. */
function ConnectionList({ open, filter, setFilter }: { open: OpenCapture; filter: MessageFilter; setFilter: (f: MessageFilter) => void }) {
  const { capture } = open;
  return (
    <ul className="capture-connections" aria-label="Connections">
      {capture.connections.map((c) => (
        <li key={c.index} data-connection={c.index} aria-current={filter.connection === c.index ? "true" : undefined}>
          <button type="button" className="link-button" onClick={() => setFilter({ ...filter, connection: filter.connection === c.index ? null : c.index })}>
            {c.index}: {c.client} → {c.server}
          </button>{" "}
          {formatCount(c.bytes.toServer)} B to server, {formatCount(c.bytes.toClient)} B to client · {plural(c.messages.length, "message")} ·{" "}
          <span className={c.gaps.length ? "tone-bad" : undefined}>{plural(c.gaps.length, "gap")}</span>
          {c.encryption && <span className="tone-bad"> · TLS: encrypted, no message can be read</span>}
        </li>
      ))}
      {capture.otherTcpConnections > 0 && <li>{plural(capture.otherTcpConnections, "other TCP connection")} (not Iggy, not decoded)</li>}
      {capture.quicPackets > 0 && (
        <li>
          {plural(capture.quicPackets, "QUIC packet")} (UDP port {QUIC_PORT}: encrypted, counted only)
        </li>
      )}
    </ul>
  );
}

/** The Messages panel of the open capture, or nothing when no capture is open. */
export function MessagesView() {
  const open = useStore(captureStore, selectCapture);
  return open ? <CaptureMessages open={open} /> : null;
}

function CaptureMessages({ open }: { open: OpenCapture }) {
  const { capture, shown } = open;
  const headingId = useId();
  const index = useMemo(() => captureIndex(capture), [capture]);
  const columns = useMemo(() => messageColumns(index, capture.timeDigits), [index, capture.timeDigits]);
  const choices = useMemo(() => commandChoices(index), [index]);
  const [filter, setFilter] = useState<MessageFilter>(ALL_MESSAGES);
  const { table, sorting } = useIndexTable(columns);
  const sort = sorting[0];
  const total = index.length;
  const { order, busy } = useRowOrder(
    () => buildOrder(0, total, keepsAll(filter) ? null : keepOf(index, filter), sort ? { key: sortKeyOf(sort.id, index), desc: sort.desc } : null),
    total > HEAVY_ORDER_ROWS && (!keepsAll(filter) || sort !== undefined),
    index,
    [index, total, filter, sort?.id, sort?.desc],
  );
  const shownId = shown ? index.idOf(shown) : -1;
  const selectedOf = useCallback(() => shownId, [shownId]);
  const onActivate = useCallback((id: number) => void showCaptureMessage(index.ref(id)), [index]);
  const rowTone = useCallback((id: number) => findingsTone(index, id), [index]);
  const rowAttrs = useCallback((id: number) => ({ "data-message": messageKey(index.ref(id)) }), [index]);
  // ← / → step through the rows as listed (filter and sort applied), from the message shown.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if ((e.key !== "ArrowLeft" && e.key !== "ArrowRight") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!(e.target as HTMLElement).closest("[data-pos]")) return;
    e.preventDefault();
    const from = shownId >= 0 ? order.positionOf(shownId) : -1;
    const next = from < 0 ? 0 : from + (e.key === "ArrowRight" ? 1 : -1);
    if (next >= 0 && next < order.length) onActivate(order.at(next));
  };
  const connection = filter.connection;
  return (
    <section className="panel tbl-panel messages-panel" aria-labelledby={headingId}>
      <ConnectionList open={open} filter={filter} setFilter={setFilter} />
      <div className="tbl-bar">
        <h2 id={headingId} className="tbl-title">
          Messages
        </h2>
        <span className="tbl-count">{order.length === total ? plural(total, "message") : `${formatCount(order.length)} of ${plural(total, "message")}`}</span>
        <TableToggle label="Problems only" checked={filter.problemsOnly} onChange={(problemsOnly) => setFilter({ ...filter, problemsOnly })} />
        <label className="tbl-toggle">
          Connection{" "}
          <select
            aria-label="Connection"
            value={connection ?? ""}
            onChange={(e) => setFilter({ ...filter, connection: e.target.value === "" ? null : Number(e.target.value) })}
          >
            <option value="">all</option>
            {capture.connections.map((c) => (
              <option key={c.index} value={c.index}>
                {c.index}
              </option>
            ))}
          </select>
        </label>
        <label className="tbl-toggle">
          Direction{" "}
          <select
            aria-label="Direction"
            value={filter.direction ?? ""}
            onChange={(e) => setFilter({ ...filter, direction: (e.target.value || null) as MessageFilter["direction"] })}
          >
            <option value="">both</option>
            <option value="to-server">→ to server</option>
            <option value="to-client">← to client</option>
          </select>
        </label>
        <label className="tbl-toggle">
          Operation{" "}
          <select aria-label="Operation" value={filter.command ?? ""} onChange={(e) => setFilter({ ...filter, command: e.target.value || null })}>
            <option value="">all</option>
            {choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      {open.shownNote && (
        <p className="messages-note" data-testid="message-note">
          {open.shownNote}
        </p>
      )}
      <div onKeyDown={onKeyDown}>
        <VirtualTable
          label="Messages"
          table={table}
          columns={columns}
          order={order}
          busy={busy}
          selectedOf={selectedOf}
          rangeOf={noRange}
          onActivate={onActivate}
          rowTone={rowTone}
          rowAttrs={rowAttrs}
          followSelection
          emptyText={filter.problemsOnly ? "No message has a finding." : "The capture holds no Iggy message."}
        />
      </div>
    </section>
  );
}
