/**
 * The explorer's state: the loaded input and its analysis, loading progress, hover, selection and cursor.
 *
 * Who writes and who reads each store (a writer outside this list is a bug):
 * - documentStore: written by session/loading (a new input, progress, errors) and session/editing (edited bytes);
 *   read by the app shell, every feature panel and state/actions.
 * - formatStore: written by session/loading (every load and the Format control); read by input, share, session/loading.
 * - partitionStore: written by session/loading (a partition opened, a segment of it shown, anything else opened);
 *   read by the app shell, partition, diagnostics.
 * - captureStore: written by session/loading and session/capture-session (a capture opened, a message of it shown,
 *   anything else opened); read by the app shell, containers (Messages), diagnostics.
 * - selectionStore: written only through state/actions (select*, step*) and resetInteraction; read by hex, tables,
 *   inspector (common/selection-hooks), share and edit.
 * - hoverStore: written by state/actions.hoverRange, hex/inspect and the tables' and inspector's row hovers; read by hex and tables.
 * - cursorStore: written by state/actions and hex/HexView (arrow keys); read by hex and state/actions.
 * - revealStore: written by state/actions.hoverRange; read by hex/HexView.
 * Stores kept next to their only owner: editStore (written by session/editing; read by edit, diff) and editModeStore
 * (written by edit/EditPanel; read by hex) in session/editing; fieldEditStore in common/FieldEditForm (its button and form);
 * inspectStore and coverageStore in hex/ (the hex map and its tooltip).
 */
import type { Analysis } from "../../core/model/model.ts";
import type { FormatChoice, IndexEntries, PartitionResult } from "../../core/containers/index.ts";
import type { InputMeta, PageCapture } from "../../worker/protocol.ts";
import type { InputBytes } from "../../lib/input-bytes.ts";
import { createStore } from "./store.ts";

/** An input that has been analysed and is on screen. */
export interface LoadedInput {
  /**
   * The new-input id: a fresh number each time an input is opened (session/loading.ts, from nextInputId),
   * kept by every later change of the same input (an edit, another format, reading it into memory).
   * Views that start over for a new input compare this, not names or sizes.
   */
  readonly opened: number;
  readonly name: string;
  /** The whole input in memory, or null for a large file read on demand (then read `source`). */
  readonly bytes: Uint8Array | null;
  /** The input's bytes for views: `memoryBytes(bytes)`, or pages of its File read as they are shown. */
  readonly source: InputBytes;
  readonly analysis: Analysis;
  readonly ranOn: "worker" | "main-thread";
  /** What a sample shows (one line), or null for the user's own input. */
  readonly note?: string | null;
  /** Where the first batch starts (an envelope's length), 0 for plain batches. */
  readonly startOffset?: number;
  /** The format it was opened as, why, and the container's own fields (null: read as plain batches). */
  readonly meta?: InputMeta | null;
  /** The file's own name when `name` is a label (a sample): decides .log / .index. Default: name. */
  readonly fileName?: string;
  /** The other file of its segment pair it was opened with (.log ↔ .index), if any. */
  readonly companion?: string | null;
  /** A segment's companion .index entries (for the index table beside the log), or null. */
  readonly companionEntries?: IndexEntries | null;
}

let lastInputId = 0;

/** A new-input id for an input being opened (LoadedInput.opened). */
export function nextInputId(): number {
  return ++lastInputId;
}

/** A partition opened from several files or a folder: what the partition keeps, and its files to open one by one. */
export interface OpenPartition {
  /** What the status line names, e.g. "partitions/3 (6 files)". */
  readonly name: string;
  readonly result: PartitionResult;
  /** The dropped files by name, read again only when a segment is chosen. */
  readonly files: ReadonlyMap<string, Blob>;
  /** The file shown in the hex map, or null. */
  readonly shown: string | null;
}

/** One message of a capture: its connection and its index on that connection (`data-message="<conn>:<index>"`). */
export interface MessageRef {
  readonly connection: number;
  readonly message: number;
}

/** A network capture on screen: its message index (held by the worker too), the file to read messages from, the message shown. */
export interface OpenCapture {
  readonly name: string;
  readonly capture: PageCapture;
  /** The capture file, read again (by the worker) only for the messages chosen. */
  readonly input: Blob | ArrayBuffer;
  /** The message in the hex map and tables, or null. */
  readonly shown: MessageRef | null;
  /** What the hex map shows of the shown message when not all of it (a gap, a masked secret), or null. */
  readonly shownNote: string | null;
}

/** What the page is showing or doing with inputs. */
export interface DocumentState {
  readonly input: LoadedInput | null;
  /** Non-null while an input is being decoded. */
  readonly loading: { readonly name: string; readonly done: number; readonly total: number; readonly verb?: string } | null;
  /** A problem reading the input (not a finding about it). */
  readonly error: string | null;
}

/** A highlighted half-open byte range and what it stands for. */
export interface ByteSpan {
  readonly start: number;
  readonly end: number;
}

/** The current selection: a byte range, plus the batch/frame it belongs to (-1 if none). */
export interface Selection extends ByteSpan {
  readonly batch: number;
  /** Index in the frame columns, or -1. */
  readonly frame: number;
  /** Who made it, so a view does not scroll itself in answer to its own click. */
  readonly origin: "hex" | "table" | "diagnostic" | "keyboard" | "link";
}

/** The loaded document and loading status. */
export const documentStore = createStore<DocumentState>({ input: null, loading: null, error: null });

/** The byte range under the pointer (a field, a row's bytes, or a checksum's coverage), or null. */
export const hoverStore = createStore<ByteSpan | null>(null);

/** The selected range, or null. */
export const selectionStore = createStore<Selection | null>(null);

/** A request to bring a byte into view in the hex map without selecting it (a hovered table row). */
export const revealStore = createStore<{ readonly start: number } | null>(null);

/** The Format control's choice for the shown input: auto-detect, or a forced format name. */
export const formatStore = createStore<FormatChoice>("auto");

/** The partition on screen, or null when a single input is open. */
export const partitionStore = createStore<OpenPartition | null>(null);

/** The capture on screen, or null when none is open. */
export const captureStore = createStore<OpenCapture | null>(null);

/** The keyboard cursor: one byte offset in the hex map. */
export const cursorStore = createStore<number>(0);

/** Clears hover, selection and cursor, e.g. when a new input arrives. */
export function resetInteraction(): void {
  hoverStore.set(null);
  selectionStore.set(null);
  cursorStore.set(0);
}
