/** The legend of the hex map: every byte kind with its colour and the spec's description, then the marks. */
import type { JSX } from "react";
import { ALL_BYTE_KINDS, describeKind, type ByteKind } from "../../format/fields.ts";
import { isContainerKind } from "../../format/containers/index.ts";
import { KIND_STYLE, SWATCH_CLASS } from "../common/kind-style.ts";
import "./hex.css";

// Samples use the ASCII cells' classes (not data-*) so page-wide test selectors only match hex cells.
const MARKS: readonly { sample: string; name: string; description: string }[] = [
  { sample: "edge-batch", name: "batch start", description: "A thick bar on the first byte of each batch." },
  { sample: "edge-frame", name: "frame start", description: "A thin bar on the first byte of each frame." },
  {
    sample: "problem-error",
    name: "error",
    description: "A corner flag, a bar above, dense hatching and a dashed underline: bytes an error is about (also marked in the Overview).",
  },
  { sample: "problem-warning", name: "warning", description: "A small corner flag, sparse hatching and a dotted underline: bytes a warning is about." },
  { sample: "problem-info", name: "info", description: "Dots and a double underline: bytes an info note is about." },
  { sample: "is-hover", name: "hover", description: "Thin lines above and below: the field under the pointer or cursor." },
  { sample: "is-selected", name: "selection", description: "Strong tint and thick lines: the selected field, frame or range." },
  { sample: "is-covered", name: "checksum coverage", description: "Dotted lines: the bytes the hovered checksum is computed over." },
  { sample: "is-cursor", name: "cursor", description: "An outline: the keyboard cursor of the hex map." },
];

// The batch's own kinds first; the many container kinds (segments, requests, legacy dumps) fold away below them.
const BATCH_KINDS = ALL_BYTE_KINDS.filter((k) => !isContainerKind(k));
const CONTAINER_KINDS = ALL_BYTE_KINDS.filter((k) => isContainerKind(k));

function KindItem({ kind }: { kind: ByteKind }): JSX.Element {
  return (
    <li data-legend-kind={kind}>
      <span className={`${SWATCH_CLASS} ${KIND_STYLE[kind].className}`} aria-hidden="true" />
      <span className="hx-legend-name">{KIND_STYLE[kind].label}</span>
      <span className="hx-legend-desc">{describeKind(kind).description}</span>
    </li>
  );
}

/** Every kind's swatch, name and description, and what the overlaid marks mean. */
export function Legend(): JSX.Element {
  return (
    <div className="hx-legend">
      <ul className="hx-legend-kinds" aria-label="Byte kinds">
        {BATCH_KINDS.map((kind) => (
          <KindItem key={kind} kind={kind} />
        ))}
      </ul>
      <details className="hx-legend-containers">
        <summary>Container fields ({CONTAINER_KINDS.length})</summary>
        <ul className="hx-legend-kinds" aria-label="Container byte kinds">
          {CONTAINER_KINDS.map((kind) => (
            <KindItem key={kind} kind={kind} />
          ))}
        </ul>
      </details>
      <ul className="hx-legend-marks" aria-label="Marks">
        {MARKS.map((m) => (
          <li key={m.name}>
            <span className={`hx-legend-sample hx-a kind-frame-payload ${m.sample}`} aria-hidden="true">
              0a
            </span>
            <span className="hx-legend-name">{m.name}</span>
            <span className="hx-legend-desc">{m.description}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
