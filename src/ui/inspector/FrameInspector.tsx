/**
 * The Frame inspector: everything about the selected frame (or the first frame of the shown
 * batch): header facts, the id in every reading, the payload as text / JSON / hex, and the
 * user headers. All of it is rendered as React text; nothing from the input becomes markup.
 */
import { visibleLines, visibleText } from "../../lib/text-escape.ts";
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from "react";
import { frameDetail, type FrameDetail } from "../../core/view/frame-view.ts";
import { hex64 } from "../../format/values.ts";
import { selectFrame } from "../state/actions.ts";
import { hoverStore, type ByteSpan, type LoadedInput } from "../state/app-state.ts";
import { checksumVerdict, formatCount, hexOffset, timeWithRaw } from "../common/cell-text.ts";
import { useShownBatch, useShownFrame } from "../common/selection-hooks.ts";
import { capNote, HEX_CAP, idFacts, JSON_CAP, prettyJson, TEXT_CAP, utf8Text, xxdLines } from "./payload-view.ts";
import { EditFieldButton, FieldEditForm } from "../common/FieldEditForm.tsx";
import { useByteWindow } from "../common/use-byte-window.ts";
import { wholeWindow, type ByteWindow } from "../../lib/input-bytes.ts";
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import type { FrameColumns } from "../../core/model/model.ts";
import { frameUserHeadersLength } from "../../core/model/frame-columns.ts";
import { applyFieldEditResident } from "../session/editing.ts";
import { fieldText } from "../common/field-value.ts";
import "./inspector.css";

type PayloadTab = "text" | "json" | "hex";
const TABS: readonly { id: PayloadTab; label: string }[] = [
  { id: "text", label: "Text" },
  { id: "json", label: "JSON" },
  { id: "hex", label: "Hex" },
];

/** Props for hover linking: pointing at a block highlights its bytes in the hex view. */
function hoverProps(span: ByteSpan): { onMouseEnter: () => void; onMouseLeave: () => void } {
  return { onMouseEnter: () => hoverStore.set(span), onMouseLeave: () => hoverStore.set(null) };
}

function Fact({ label, children, span, tone }: { label: string; children: ReactNode; span?: ByteSpan; tone?: "ok" | "error" }) {
  return (
    <div className="insp-fact" data-tone={tone} {...(span ? hoverProps(span) : {})}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** User headers larger than this are not read on demand (the section says so). */
const USER_HEADERS_READ_CAP = 1 << 20;

/**
 * The two windows the inspector reads of frame `frame` of an input read on demand: its header with the
 * payload's head (all of a payload up to JSON_CAP, else TEXT_CAP of it), and its user headers.
 */
export function inspectorRanges(f: FrameColumns, frame: number): { head: [number, number]; tail: [number, number] } {
  if (frame < 0 || frame >= f.count) return { head: [0, 0], tail: [0, 0] };
  const start = f.start[frame] as number;
  const payload = f.payloadLength[frame] as number;
  const payloadEnd = start + FRAME_HEADER_SIZE + payload;
  return {
    head: [start, start + FRAME_HEADER_SIZE + (payload <= JSON_CAP ? payload : TEXT_CAP)],
    tail: [payloadEnd, payloadEnd + Math.min(frameUserHeadersLength(f, frame), USER_HEADERS_READ_CAP)],
  };
}

/** The Frame inspector panel for a loaded input. */
export function FrameInspector({ input }: { input: LoadedInput }) {
  const { analysis, bytes } = input;
  const headingId = useId();
  const frame = useShownFrame(input);
  const shownBatch = useShownBatch(input);
  // In memory the whole input is the window; on demand the frame's header, payload head and user headers are read.
  const ranges = bytes ? { head: [0, 0], tail: [0, 0] } : inspectorRanges(analysis.frames, frame);
  const headRead = useByteWindow(input.source, ranges.head[0]!, ranges.head[1]!);
  const tailRead = useByteWindow(input.source, ranges.tail[0]!, ranges.tail[1]!);
  const whole = useMemo(() => (bytes ? wholeWindow(bytes) : null), [bytes]);
  const head = whole ?? headRead.window;
  const tail = whole ?? tailRead.window;
  const detail = useMemo(() => (frame >= 0 && head && tail ? frameDetail(analysis, head, frame, tail) : null), [analysis, head, tail, frame]);
  const readError = whole ? null : (headRead.error ?? tailRead.error);
  // null: pick JSON when the payload parses, else text; a tab the user picks sticks across frames.
  const [tab, setTab] = useState<PayloadTab | null>(null);

  let body: ReactNode;
  let subtitle = "";
  if (frame >= 0 && readError) {
    body = (
      <p className="insp-note" role="alert">
        {readError}
      </p>
    );
  } else if (frame >= 0 && !detail) {
    subtitle = `frame ${frame} of the input`;
    body = (
      <p className="insp-muted" aria-busy="true">
        Reading frame {frame} from the file…
      </p>
    );
  } else if (!detail || !head) {
    const batch = analysis.batches.at(shownBatch);
    body = (
      <p className="insp-empty">
        {batch
          ? `Batch ${shownBatch} holds no complete frame${batch.truncatedFrame ? " (its last frame is truncated)" : ""}. Select a frame in the Frames table or the hex view.`
          : "The input holds no batch. Select a frame in the Frames table or the hex view."}
      </p>
    );
  } else {
    subtitle = `batch ${detail.batch.index} · frame ${detail.indexInBatch}`;
    body = <FrameBody detail={detail} header={head} tab={tab} setTab={setTab} />;
  }

  return (
    <section className="panel insp" aria-labelledby={headingId}>
      <div className="insp-bar">
        <h2 id={headingId} className="insp-title">
          Frame inspector
        </h2>
        <span className="insp-subtitle">{subtitle}</span>
        {frame >= 0 ? (
          <span className="insp-nav">
            <button type="button" onClick={() => selectFrame(frame - 1, "keyboard")} disabled={frame <= 0}>
              Previous frame
            </button>
            <button type="button" onClick={() => selectFrame(frame + 1, "keyboard")} disabled={frame >= analysis.frames.count - 1}>
              Next frame
            </button>
          </span>
        ) : null}
      </div>
      <div className="insp-scroll">{body}</div>
    </section>
  );
}

interface FrameBodyProps {
  readonly detail: FrameDetail;
  /** A window holding the frame's header (absolute offsets). */
  readonly header: ByteWindow;
  readonly tab: PayloadTab | null;
  readonly setTab: (t: PayloadTab) => void;
}

function FrameBody({ detail, header: window, tab, setTab }: FrameBodyProps) {
  const d = detail;
  const verdict = checksumVerdict(d.storedChecksum, d.computedChecksum);
  const payloadSize = d.payload.end - d.payload.start;
  const userHeadersSize = d.userHeaders.end - d.userHeaders.start;
  const header = d.batch.header;
  return (
    <>
      <dl className="insp-facts" aria-label="Frame facts">
        <Fact label="Batch" span={{ start: d.batch.start, end: d.batch.end }}>
          {d.batch.index} ({d.batch.stamped ? "stamped" : "producer"}) at {hexOffset(d.batch.start)}
        </Fact>
        <Fact label="Frame" span={{ start: d.start, end: d.end }}>
          {d.indexInBatch} of {formatCount(d.batch.frameCount)} · bytes {hexOffset(d.start)}..{hexOffset(d.end)} ({formatCount(d.end - d.start)} bytes)
        </Fact>
        <Fact label="Message offset" span={{ start: d.start + 24, end: d.start + 28 }}>
          {d.messageOffset === null
            ? "—"
            : `${d.messageOffset} (base_offset ${header?.baseOffset} + offset_delta ${d.messageOffset - (header?.baseOffset ?? 0n)})`}
        </Fact>
        <Fact label="Producer time" span={{ start: d.start + 28, end: d.start + 32 }}>
          {d.producerTime === null ? "—" : timeWithRaw(d.producerTime)}
        </Fact>
        {d.batch.stamped && header ? (
          <Fact label="Server time" span={{ start: d.batch.start + 16, end: d.batch.start + 24 }}>
            {timeWithRaw(header.baseTimestamp)}
          </Fact>
        ) : null}
        <Fact label="Checksum" span={{ start: d.start, end: d.start + 8 }} tone={verdict.ok ? "ok" : "error"}>
          {verdict.ok ? `✓ ${hex64(d.storedChecksum)}` : `✗ stored ${hex64(d.storedChecksum)} ≠ computed ${hex64(d.computedChecksum)}`}
        </Fact>
      </dl>

      <section className="insp-section" aria-label="Frame header fields">
        <h3>Header fields</h3>
        <dl className="insp-facts">
          {d.fields.map((f) => (
            <Fact key={f.spec.name} label={f.spec.name} span={{ start: f.start, end: f.end }}>
              <span className="insp-mono">{fieldText(window.bytes, d.start - window.start, f.spec)}</span>
              <EditFieldButton
                target={{ spec: f.spec, base: d.start, where: "frame", label: `batch ${d.batch.index} frame ${d.indexInBatch} ${f.spec.name}` }}
              />
            </Fact>
          ))}
        </dl>
        <FieldEditForm where="frame" onApply={applyFieldEditResident} />
      </section>

      <section className="insp-section" aria-label="Message id" {...hoverProps({ start: d.start + 8, end: d.start + 24 })}>
        <h3>Id</h3>
        <dl className="insp-facts">
          {idFacts(d.id).map((f) => (
            <Fact key={f.label} label={f.label}>
              <span className="insp-mono">{f.value}</span>
            </Fact>
          ))}
        </dl>
      </section>

      <section className="insp-section" aria-label="Payload" {...hoverProps(d.payload)}>
        <h3>
          Payload <span className="insp-size">{formatCount(payloadSize)} bytes</span>
        </h3>
        <PayloadTabs payload={d.payload.head} total={payloadSize} tab={tab} setTab={setTab} />
      </section>

      <section className="insp-section" aria-label="User headers" {...hoverProps({ start: d.userHeaders.start, end: d.userHeaders.end })}>
        <h3>
          User headers <span className="insp-size">{formatCount(userHeadersSize)} bytes</span>
        </h3>
        <UserHeaders detail={d} />
      </section>
    </>
  );
}

interface PayloadTabsProps {
  /** The payload's bytes from its start: all of it, or its head when read on demand. */
  readonly payload: Uint8Array;
  /** The payload's whole length. */
  readonly total: number;
  readonly tab: PayloadTab | null;
  readonly setTab: (t: PayloadTab) => void;
}

function PayloadTabs({ payload, total, tab, setTab }: PayloadTabsProps) {
  const baseId = useId();
  // The payload is a fresh subarray every render: keyed by the bytes it views instead.
  const { buffer, byteOffset, length } = payload;
  // JSON is parsed to pick the default tab; text and hex are built only for the tab on show.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the viewed bytes, see above
  const json = useMemo(() => prettyJson(payload, JSON_CAP, total), [buffer, byteOffset, length, total]);
  const current: PayloadTab = tab ?? (json.ok ? "json" : "text");
  const views = {
    json,
    get text() {
      return utf8Text(payload, TEXT_CAP, total);
    },
    get hex() {
      return xxdLines(payload, HEX_CAP, total);
    },
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const at = TABS.findIndex((t) => t.id === current);
    const next =
      e.key === "ArrowRight"
        ? (at + 1) % TABS.length
        : e.key === "ArrowLeft"
          ? (at + TABS.length - 1) % TABS.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? TABS.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const t = TABS[next]!.id;
    setTab(t);
    document.getElementById(`${baseId}-tab-${t}`)?.focus();
  };

  let panel: ReactNode;
  if (current === "text") {
    const note = capNote(views.text.shown, views.text.total);
    panel =
      total === 0 ? (
        <p className="insp-muted">Empty payload.</p>
      ) : (
        <>
          <pre className="insp-pre insp-pre--wrap">{visibleLines(views.text.text)}</pre>
          {note ? <p className="insp-muted">{note}</p> : null}
        </>
      );
  } else if (current === "json") {
    panel = views.json.ok ? <pre className="insp-pre">{visibleLines(views.json.text)}</pre> : <p className="insp-muted">Not JSON: {views.json.reason}</p>;
  } else {
    const note = capNote(views.hex.shown, views.hex.total);
    panel =
      total === 0 ? (
        <p className="insp-muted">Empty payload.</p>
      ) : (
        <>
          <pre className="insp-pre insp-hex">{views.hex.lines.join("\n")}</pre>
          {note ? <p className="insp-muted">{note}</p> : null}
        </>
      );
  }

  return (
    <div className="insp-tabs">
      <div role="tablist" aria-label="Payload view" className="insp-tablist" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t.id}`}
            aria-selected={t.id === current}
            aria-controls={`${baseId}-panel`}
            tabIndex={t.id === current ? 0 : -1}
            className="insp-tab"
            onClick={() => setTab(t.id)}
          >
            {t.label}
            {t.id === "json" && !views.json.ok ? <span className="insp-muted"> (no)</span> : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${current}`} className="insp-tabpanel" tabIndex={0}>
        {panel}
      </div>
    </div>
  );
}

function UserHeaders({ detail }: { detail: FrameDetail }) {
  const { decoded, bytes: block, start, end } = detail.userHeaders;
  if (end === start) return <p className="insp-muted">None (user_headers_length is 0).</p>;
  if (block === null || decoded === null)
    return <p className="insp-muted">Not read: {formatCount(end - start)} bytes are more than the inspector reads from a file opened on demand.</p>;
  if (decoded.ok) {
    return (
      <table className="insp-headers" aria-label="User headers">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Kind</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {decoded.headers.map((h, i) => (
            <tr key={i}>
              <td className="insp-mono" title={`key kind ${h.key.kindName}`}>
                {visibleText(h.key.text)}
              </td>
              <td>{h.value.kindName}</td>
              <td className="insp-mono">{visibleText(h.value.text)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  const dump = xxdLines(block);
  const note = capNote(dump.shown, dump.total);
  return (
    <>
      <p className="insp-note" role="note">
        not Iggy TLV: {decoded.reason}; the server treats user headers as opaque bytes
      </p>
      <pre className="insp-pre insp-hex">{dump.lines.join("\n")}</pre>
      {note ? <p className="insp-muted">{note}</p> : null}
    </>
  );
}
