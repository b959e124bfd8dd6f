/**
 * The layout diagram (contracts.md §2), in the manner of Wireshark's packet diagrams: the shown
 * batch's 256-byte header and the shown frame's 48-byte header drawn from the field table, boxes
 * to scale in the hex map's colours, values filled in. Hovering a box lights its bytes in the hex
 * map; a click selects them. A key of field roles under it makes it the legend too. A file read on
 * demand gives the diagram only the two headers it draws; their values show "··" until read.
 */
import { useCallback, useMemo, type JSX } from "react";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type FieldRole, type FieldSpec } from "../../format/fields.ts";
import { wholeWindow, type ByteWindow } from "../../lib/input-bytes.ts";
import { useByteWindow } from "../common/use-byte-window.ts";
import { hoverRange, selectRange } from "../state/actions.ts";
import { selectionStore, type LoadedInput, type Selection } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { KIND_STYLE } from "../common/kind-style.ts";
import { batchFieldValue, DIAGRAM_COLUMNS, diagramBoxes, frameFieldValue, type DiagramBox } from "../../core/diagram-boxes.ts";
import "./diagram.css";
import { hexOffset } from "../../format/values.ts";
import { frameBatch, frameIndexInBatch, frameUserHeadersLength } from "../../core/frame-columns.ts";

// Holds no byte: every value read from the bytes is pending until its header's window lands.
const NOTHING: ByteWindow = { start: 0, bytes: new Uint8Array(0) };
const BATCH_BOXES = diagramBoxes(BATCH_HEADER_FIELDS);
const FRAME_BOXES = diagramBoxes(FRAME_HEADER_FIELDS);

/** The roles of the field table, in the order the key lists them, with the kind whose colour stands for each. */
const ROLES: readonly { role: FieldRole | "payload" | "user headers"; kind: keyof typeof KIND_STYLE; text: string }[] = [
  { role: "server-stamped", kind: "batch.base_offset", text: "set by the server when it appends" },
  { role: "producer-set", kind: "frame.id", text: "set by the producer" },
  { role: "length", kind: "batch.batch_length", text: "lengths and counts" },
  { role: "checksum", kind: "frame.checksum", text: "XXH3-64 checksums" },
  { role: "reserved", kind: "batch.reserved", text: "must be zero" },
  { role: "payload", kind: "frame.payload", text: "the message body" },
  { role: "user headers", kind: "frame.user_headers", text: "TLV user headers" },
];

const selectShown = (s: Selection | null) => (s ? `${s.batch}:${s.frame}` : "-1:-1");

/** What a box shows while its bytes are being read from the file. */
const PENDING = "··";

function Boxes({
  boxes,
  base,
  value,
  label,
}: {
  boxes: readonly DiagramBox[];
  base: number;
  value: (f: FieldSpec) => string | null;
  label: string;
}): JSX.Element {
  const enter = useCallback((b: DiagramBox) => hoverRange({ start: base + b.field.offset, end: base + b.field.offset + b.field.size }), [base]);
  return (
    <ol className="dg-grid" aria-label={label} style={{ gridTemplateColumns: `repeat(${DIAGRAM_COLUMNS}, minmax(0, 1fr))` }}>
      {boxes.map((b) => {
        const v = b.first ? value(b.field) : null;
        return (
          <li
            key={b.offset}
            className={`dg-box ${KIND_STYLE[b.field.kind].className}`}
            data-field={b.field.name}
            data-field-offset={b.offset}
            data-size={b.size}
            data-lines={b.lines}
            style={{ gridColumn: `${b.column + 1} / span ${b.size > DIAGRAM_COLUMNS ? DIAGRAM_COLUMNS : b.size}` }}
            onMouseEnter={() => enter(b)}
            onMouseLeave={() => hoverRange(null)}
          >
            <button
              type="button"
              className="dg-button"
              onClick={() => selectRange(base + b.field.offset, base + b.field.offset + b.field.size, "table")}
              aria-label={`${b.field.name}, bytes ${b.field.offset} to ${b.field.offset + b.field.size}${b.first ? `: ${v ?? "reading…"}` : " (continued)"}`}
            >
              {b.first ? (
                <>
                  <span className="dg-name">{b.field.name}</span>
                  <span className="dg-value" aria-busy={v === null || undefined}>
                    {v ?? PENDING}
                  </span>
                </>
              ) : (
                <span className="dg-cont">{b.lines > 1 ? `… ${b.size} more bytes (${b.lines} lines)` : "…"}</span>
              )}
              <span className="dg-size">
                +{b.offset} · {b.field.size} B
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The diagram of the shown batch header and frame header, with the key of roles. */
export function LayoutDiagram({ input }: { input: LoadedInput }): JSX.Element {
  const { analysis, bytes } = input;
  const [batchText, frameText] = useStore(selectionStore, selectShown).split(":");
  const selectedBatch = Number(batchText);
  const selectedFrame = Number(frameText);
  const batch = selectedBatch >= 0 && selectedBatch < analysis.batches.length ? selectedBatch : 0;
  const b = analysis.batches.at(batch);
  const frame = selectedFrame >= 0 && selectedFrame < analysis.frames.count ? selectedFrame : b && b.frameCount > 0 ? b.firstFrame : -1;
  const fStart = frame >= 0 ? (analysis.frames.start[frame] as number) : -1;
  // On demand the diagram reads the two headers it draws (256 + 48 bytes), never a payload.
  const batchRead = useByteWindow(input.source, b && !bytes ? b.start : 0, b && !bytes ? b.start + BATCH_HEADER_SIZE : 0);
  const frameRead = useByteWindow(input.source, fStart >= 0 && !bytes ? fStart : 0, fStart >= 0 && !bytes ? fStart + FRAME_HEADER_SIZE : 0);
  const whole = useMemo(() => (bytes ? wholeWindow(bytes) : null), [bytes]);
  const batchWindow = whole ?? batchRead.window ?? NOTHING;
  const frameWindow = whole ?? frameRead.window ?? NOTHING;
  const readError = whole ? null : (batchRead.error ?? frameRead.error);
  return (
    <section className="panel dg-panel" aria-labelledby="dg-heading">
      <h2 id="dg-heading">Layout</h2>
      <figure className="dg" aria-label="Layout diagram">
        {readError ? (
          <p className="dg-caption" role="alert">
            {readError}
          </p>
        ) : null}
        {b?.header ? (
          <>
            <figcaption className="dg-caption">
              Batch {batch} header: 256 bytes at {hexOffset(b.start, 0)}, 16 bytes a line
            </figcaption>
            <Boxes boxes={BATCH_BOXES} base={b.start} value={(f) => batchFieldValue(analysis, batchWindow, batch, f)} label={`Batch ${batch} header fields`} />
          </>
        ) : (
          <figcaption className="dg-caption">No whole batch header to draw.</figcaption>
        )}
        {frame >= 0 && (
          <>
            <p className="dg-caption">
              Frame {frameIndexInBatch(analysis.batches, frame)} of batch {frameBatch(analysis.batches, frame)}: {FRAME_HEADER_SIZE}-byte header at{" "}
              {hexOffset(fStart, 0)}, then
            </p>
            <Boxes
              boxes={FRAME_BOXES}
              base={fStart}
              value={(f) => frameFieldValue(analysis, frameWindow, frame, f)}
              label={`Frame ${frameIndexInBatch(analysis.batches, frame)} header fields`}
            />
            <p className="dg-tail">
              <span className={`dg-part ${KIND_STYLE["frame.payload"].className}`}>payload · {analysis.frames.payloadLength[frame]} B</span>
              <span className={`dg-part ${KIND_STYLE["frame.user_headers"].className}`}>user headers · {frameUserHeadersLength(analysis.frames, frame)} B</span>
            </p>
          </>
        )}
        <ul className="dg-key" aria-label="Field roles">
          {ROLES.map((r) => (
            <li key={r.role}>
              <span className={`kind-swatch ${KIND_STYLE[r.kind].className}`} aria-hidden="true" /> <strong>{r.role}</strong> {r.text}
            </li>
          ))}
        </ul>
      </figure>
    </section>
  );
}
