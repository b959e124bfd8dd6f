/**
 * The layout diagram (contracts.md §2), in the manner of Wireshark's packet diagrams: the shown
 * batch's 256-byte header and the shown frame's 48-byte header drawn from the field table, boxes
 * to scale in the hex map's colours, values filled in. Hovering a box lights its bytes in the hex
 * map; a click selects them. A key of field roles under it makes it the legend too. A file read on
 * demand gives the diagram only the two headers it draws; their values show "··" until read.
 * A field a finding touches is hatched and outlined as in the hex map and `render --diagram`
 * (core/report/render-diagram.ts `fieldSeverity`); a field's further lines are drawn as its continuation.
 */
import { useCallback, useMemo, type JSX } from "react";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type FieldRole, type FieldSpec } from "../../format/fields.ts";
import { wholeWindow, type ByteWindow } from "../../lib/input-bytes.ts";
import { useByteWindow } from "../common/use-byte-window.ts";
import { hoverRange, selectRange } from "../state/actions.ts";
import { selectionStore, type LoadedInput, type Selection } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { KIND_STYLE } from "../common/kind-style.ts";
import { batchFieldValue, DIAGRAM_COLUMNS, diagramBoxes, frameFieldValue, type DiagramBox } from "../../core/view/diagram-boxes.ts";
import "./diagram.css";
import { hexOffset } from "../../format/values.ts";
import { frameBatch, frameIndexInBatch, frameUserHeadersLength } from "../../core/model/frame-columns.ts";
import { fieldSeverity } from "../../core/report/render-diagram.ts";
import { RangeIndex } from "../../lib/range-index.ts";
import type { Diagnostic, Severity } from "../../format/diagnostics.ts";

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

/** The findings on one field: the worst severity (its mark) and what they say. */
interface FieldFindings {
  readonly severity: Severity;
  readonly text: string;
}

// The findings touching bytes [start, end) of the input, from those near the header (an empty finding marks the byte it points at).
function findingsOn(near: readonly Diagnostic[], start: number, end: number): FieldFindings | null {
  const severity = fieldSeverity(near, start, end);
  if (!severity) return null;
  const on = near.filter((d) => d.start < end && Math.max(d.end, d.start + 1) > start);
  return { severity, text: on.map((d) => `${d.severity} ${d.code}: ${d.message}`).join("\n") };
}

function Boxes({
  boxes,
  base,
  value,
  label,
  near,
}: {
  boxes: readonly DiagramBox[];
  base: number;
  value: (f: FieldSpec) => string | null;
  label: string;
  /** The findings that touch this header (a few), for the marks. */
  near: readonly Diagnostic[];
}): JSX.Element {
  const enter = useCallback((b: DiagramBox) => hoverRange({ start: base + b.field.offset, end: base + b.field.offset + b.field.size }), [base]);
  return (
    <ol className="dg-grid" aria-label={label} style={{ gridTemplateColumns: `repeat(${DIAGRAM_COLUMNS}, minmax(0, 1fr))` }}>
      {boxes.map((b) => {
        const v = b.first ? value(b.field) : null;
        const found = findingsOn(near, base + b.field.offset, base + b.field.offset + b.field.size);
        const style = { gridColumn: `${b.column + 1} / span ${b.size > DIAGRAM_COLUMNS ? DIAGRAM_COLUMNS : b.size}` };
        const common = {
          className: `dg-box ${KIND_STYLE[b.field.kind].className}${b.first ? "" : " dg-continued"}`,
          "data-field": b.field.name,
          "data-field-offset": b.offset,
          "data-size": b.size,
          "data-lines": b.lines,
          "data-problem": found?.severity,
          title: found?.text,
          style,
          onMouseEnter: () => enter(b),
          onMouseLeave: () => hoverRange(null),
        };
        // A further line of a field is drawn as part of it, not as a field of its own: no list item, no button, no offset and size.
        if (!b.first)
          return (
            <li
              key={b.offset}
              {...common}
              role="presentation"
              aria-hidden="true"
              onClick={() => selectRange(base + b.field.offset, base + b.field.offset + b.field.size, "table")}
            >
              <span className="dg-cont">{b.lines > 1 ? `${b.field.name} continued: ${b.lines} lines` : `${b.field.name} continued`}</span>
            </li>
          );
        return (
          <li key={b.offset} {...common}>
            <button
              type="button"
              className="dg-button"
              onClick={() => selectRange(base + b.field.offset, base + b.field.offset + b.field.size, "table")}
              aria-label={`${b.field.name}, bytes ${b.field.offset} to ${b.field.offset + b.field.size}: ${v ?? "reading…"}${found ? ` (${found.text})` : ""}`}
            >
              <span className="dg-name">{b.field.name}</span>
              <span className="dg-value" aria-busy={v === null || undefined}>
                {v ?? PENDING}
              </span>
              <span className="dg-size">
                +{b.offset} · {b.field.size} B
              </span>
              {found ? <span className="dg-finding">{found.severity}</span> : null}
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
  // The findings near each drawn header, by binary search: a large input's thousands of findings are not scanned per box.
  const index = useMemo(() => new RangeIndex(analysis.diagnostics), [analysis.diagnostics]);
  const bStart = b ? b.start : -1;
  const batchNear = useMemo(() => (bStart >= 0 ? index.overlapping(bStart - 1, bStart + BATCH_HEADER_SIZE + 1) : []), [index, bStart]);
  const frameEnd =
    fStart >= 0 ? fStart + FRAME_HEADER_SIZE + (analysis.frames.payloadLength[frame] as number) + frameUserHeadersLength(analysis.frames, frame) : -1;
  const frameNear = useMemo(() => (fStart >= 0 ? index.overlapping(fStart - 1, frameEnd + 1) : []), [index, fStart, frameEnd]);
  const payloadStart = fStart + FRAME_HEADER_SIZE;
  const headersStart = payloadStart + (frame >= 0 ? (analysis.frames.payloadLength[frame] as number) : 0);
  const payloadFound = frame >= 0 ? findingsOn(frameNear, payloadStart, Math.max(headersStart, payloadStart)) : null;
  const headersFound = frame >= 0 && frameEnd > headersStart ? findingsOn(frameNear, headersStart, frameEnd) : null;
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
            <Boxes
              boxes={BATCH_BOXES}
              base={b.start}
              value={(f) => batchFieldValue(analysis, batchWindow, batch, f)}
              label={`Batch ${batch} header fields`}
              near={batchNear}
            />
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
              near={frameNear}
            />
            <p className="dg-tail">
              <span
                className={`dg-part ${KIND_STYLE["frame.payload"].className}`}
                data-part="payload"
                data-problem={payloadFound?.severity}
                title={payloadFound?.text}
              >
                payload · {analysis.frames.payloadLength[frame]} B
              </span>
              <span
                className={`dg-part ${KIND_STYLE["frame.user_headers"].className}`}
                data-part="user_headers"
                data-problem={headersFound?.severity}
                title={headersFound?.text}
              >
                user headers · {frameUserHeadersLength(analysis.frames, frame)} B
              </span>
            </p>
          </>
        )}
        <ul className="dg-key" aria-label="Field roles">
          {ROLES.map((r) => (
            <li key={r.role}>
              <span className={`kind-swatch ${KIND_STYLE[r.kind].className}`} aria-hidden="true" /> <strong>{r.role}</strong> {r.text}
            </li>
          ))}
          <li>
            <span className="dg-key-mark dg-box" data-problem="error" aria-hidden="true" /> <strong>hatched, outlined</strong> a finding on the field (hover it
            for which)
          </li>
        </ul>
      </figure>
    </section>
  );
}
