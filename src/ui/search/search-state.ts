/**
 * Go to and search: one query runs at a time; a new one cancels the one in flight. Offsets and
 * batches are gone to at once; message offsets and ids are looked up in the model; bytes and text
 * are searched in the search worker on large inputs, which reads them from the File they came from
 * (with the edits written over), so the page never hands it a second copy. The hits stay here, the selection goes to
 * selectionStore, so the hex map and the tables follow as they do for any other selection.
 */
import { describeQuery, findIds, findMessageOffset, parseQuery } from "../../core/view/search.ts";
import { AbortedError } from "../../worker/client.ts";
import { searchClient, type SearchTarget } from "../../worker/search-client.ts";
import { editedRuns, latestBytes, originalBytes } from "../session/editing.ts";
import { sourceOf } from "../session/input-source.ts";
import { beginCancellable } from "../session/long-work.ts";
import { selectRange } from "../state/actions.ts";
import { documentStore, type LoadedInput } from "../state/app-state.ts";
import { createStore } from "../state/store.ts";
import { frameEnd } from "../../core/model/frame-columns.ts";
import { frameAt } from "../../core/view/frame-view.ts";
import type { Analysis } from "../../core/model/model.ts";
import { FRAME_HEADER_FIELDS, fieldByName } from "../../format/fields.ts";

const ID_FIELD = fieldByName(FRAME_HEADER_FIELDS, "id");
const ID_OFFSET = ID_FIELD.offset;
const ID_SIZE = ID_FIELD.size;

/** Most hits one search keeps (the count then reads "100,000+"). */
export const MAX_HITS = 100_000;

/** What the search box shows. */
export interface SearchState {
  /** The query last run, as typed. */
  readonly text: string;
  /** How it was read, e.g. `text "hello" (5 B as UTF-8)`. */
  readonly reading: string;
  readonly status: "idle" | "running" | "done" | "went" | "error";
  /** Bytes searched so far while running. */
  readonly progress: { readonly done: number; readonly total: number } | null;
  /** Hit ranges, in input order (empty for a go-to). */
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  readonly capped: boolean;
  /** The hit selected last, or -1. */
  readonly current: number;
  /** A sentence for the user: where a go-to went, or why it could not. */
  readonly message: string;
  /** The input the hits belong to; another input clears them. */
  readonly input: LoadedInput | null;
  readonly ranOn: "worker" | "main-thread" | null;
}

const EMPTY = new Float64Array(0);
const IDLE: SearchState = {
  text: "",
  reading: "",
  status: "idle",
  progress: null,
  starts: EMPTY,
  ends: EMPTY,
  capped: false,
  current: -1,
  message: "",
  input: null,
  ranOn: null,
};

/** The search box's state. */
export const searchStore = createStore<SearchState>(IDLE);

const client = searchClient();
let running: AbortController | null = null;

const hexOffset = (n: number) => `0x${n.toString(16)}`;

/** Selects hit `index` of the current search (wrapping), scrolling the hex map and tables to it. */
export function selectHit(index: number): void {
  const s = searchStore.get();
  const n = s.starts.length;
  if (n === 0) return;
  const i = ((index % n) + n) % n;
  searchStore.set({ ...s, current: i });
  selectRange(s.starts[i] as number, s.ends[i] as number, "keyboard");
}

/** Moves to the next (+1) or previous (−1) hit. */
export function stepHit(direction: 1 | -1): void {
  const s = searchStore.get();
  selectHit(s.current < 0 ? (direction > 0 ? 0 : -1) : s.current + direction);
}

/** Stops a search in flight, keeping nothing of it. */
export function cancelSearch(): void {
  if (!running) return;
  running.abort();
  running = null;
  searchStore.set((s) => ({ ...s, status: "idle", progress: null, message: "Search cancelled." }));
}

/** Forgets the hits, e.g. when another input arrives. */
export function clearSearch(): void {
  running?.abort();
  running = null;
  client.forget();
  searchStore.set((s) => ({ ...IDLE, text: s.text }));
}

function finish(
  input: LoadedInput,
  text: string,
  reading: string,
  starts: Float64Array,
  ends: Float64Array,
  capped: boolean,
  ranOn: SearchState["ranOn"],
): void {
  searchStore.set({
    text,
    reading,
    status: "done",
    progress: null,
    starts,
    ends,
    capped,
    current: -1,
    message: starts.length === 0 ? `No hits for ${reading}.` : "",
    input,
    ranOn,
  });
  if (starts.length > 0) selectHit(0);
}

/**
 * What a byte search reads: the latest edited bytes, and the File they can be read from without a
 * copy (the original's File with the edited runs written over it). The edits count even while a
 * large input's re-check is still running and the shown bytes are the original's.
 */
export function searchTargetOf(input: LoadedInput): SearchTarget {
  // Read on demand (never edited: editing makes it resident first): the worker reads its File.
  if (!input.bytes) return { bytes: null, source: input.source.file, patches: [] };
  const original = originalBytes();
  // The edit history always belongs to the shown input (session/editing starts a new one for each).
  if (original && original.length === input.bytes.length) {
    const runs = editedRuns();
    const bytes = runs.length > 0 ? (latestBytes() ?? input.bytes) : input.bytes;
    const file = sourceOf(original);
    return { bytes, source: file ?? null, patches: file ? runs : [] };
  }
  return { bytes: input.bytes, source: sourceOf(input.bytes) ?? null, patches: [] };
}

/** Runs a query typed in the box against the shown input. */
export async function runQuery(text: string): Promise<void> {
  const input = documentStore.get().input;
  running?.abort();
  running = null;
  const query = parseQuery(text);
  const reading = describeQuery(query);
  const base: SearchState = { ...IDLE, text, reading, input };
  if (!input) {
    searchStore.set({ ...base, status: "error", message: "Nothing loaded to search." });
    return;
  }
  const { analysis } = input;
  const size = input.source.size;
  switch (query.kind) {
    case "empty":
      searchStore.set({ ...base, message: reading });
      return;
    case "offset": {
      if (query.offset >= size) {
        searchStore.set({
          ...base,
          status: "error",
          message: `Byte ${query.offset} (${hexOffset(query.offset)}) is past the end: the input has ${size.toLocaleString("en-US")} bytes.`,
        });
        return;
      }
      selectRange(query.offset, query.offset + 1, "keyboard");
      searchStore.set({ ...base, status: "went", message: `Went to byte ${query.offset} (${hexOffset(query.offset)}).` });
      return;
    }
    case "batch": {
      const b = analysis.batches.at(query.index);
      if (!b) {
        searchStore.set({ ...base, status: "error", message: `There is no batch ${query.index}: batches are numbered 0 to ${analysis.batches.length - 1}.` });
        return;
      }
      selectRange(b.start, Math.min(b.end, b.start + 256), "keyboard");
      searchStore.set({ ...base, status: "went", message: `Went to batch ${query.index}'s header at ${hexOffset(b.start)}.` });
      return;
    }
    case "message-offset": {
      const frames = findMessageOffset(analysis, query.value, MAX_HITS);
      const starts = Float64Array.from(frames, (f) => analysis.frames.start[f] as number);
      const ends = Float64Array.from(frames, (f) => frameEnd(analysis.frames, f));
      finish(input, text, reading, starts, ends, frames.length >= MAX_HITS, "main-thread");
      return;
    }
    case "id": {
      if (!input.bytes) {
        await idsOnDemand(input, text, reading, query.orders, base);
        return;
      }
      const hits = findIds(analysis, input.bytes, query.orders, MAX_HITS);
      finish(
        input,
        text,
        reading,
        Float64Array.from(hits, (h) => h.start),
        Float64Array.from(hits, (h) => h.end),
        hits.length >= MAX_HITS,
        "main-thread",
      );
      return;
    }
    case "bytes": {
      await runSearch(base, size, async (signal, progress) => {
        const outcome = await client.search(searchTargetOf(input), query.pattern, MAX_HITS, signal, progress);
        const length = query.pattern.length;
        return () =>
          finish(
            input,
            text,
            reading,
            outcome.starts,
            outcome.starts.map((s) => s + length),
            outcome.capped,
            outcome.ranOn,
          );
      });
    }
  }
}

/**
 * One search that runs for a while (in the search worker): the one Esc anywhere (the hex map too) and
 * the Cancel button stop, as they stop a decode. `work` reports progress and returns how to show its
 * hits, shown only if no newer search or cancel came meanwhile; a failure says so, a cancel says nothing.
 */
async function runSearch(
  base: SearchState,
  total: number,
  work: (signal: AbortSignal, progress: (done: number, all?: number) => void) => Promise<() => void>,
): Promise<void> {
  const controller = new AbortController();
  running = controller;
  const release = beginCancellable(cancelSearch);
  searchStore.set({ ...base, status: "running", progress: { done: 0, total } });
  try {
    const show = await work(controller.signal, (done, all = total) => {
      if (running === controller) searchStore.set((s) => ({ ...s, progress: { done, total: all } }));
    });
    if (running !== controller) return;
    running = null;
    show();
  } catch (err) {
    if (err instanceof AbortedError || running !== controller) return;
    running = null;
    searchStore.set({ ...base, status: "error", message: `Search failed: ${(err as Error).message}` });
  } finally {
    release();
  }
}

/** The hits in `starts` that are exactly a complete frame's id field, in input order, without repeats, at most `limit`. */
export function idFieldHits(analysis: Analysis, starts: readonly Float64Array[], limit: number): Float64Array {
  const f = analysis.frames;
  const found = new Set<number>();
  for (const list of starts)
    for (const at of list) {
      const frame = frameAt(analysis, at);
      if (frame >= 0 && (f.start[frame] as number) + ID_OFFSET === at) found.add(at);
    }
  return Float64Array.from([...found].sort((a, b) => a - b).slice(0, limit));
}

// An id on an input read on demand: each byte order is searched in the File by the worker, and only
// hits that are a frame's id field are kept, so no frame header is read on the page.
async function idsOnDemand(input: LoadedInput, text: string, reading: string, orders: readonly Uint8Array[], base: SearchState): Promise<void> {
  const size = input.source.size;
  await runSearch(base, size * orders.length, async (signal, progress) => {
    const lists: Float64Array[] = [];
    for (const [k, order] of orders.entries()) {
      lists.push((await client.search(searchTargetOf(input), order, MAX_HITS, signal, (done) => progress(k * size + done))).starts);
    }
    const starts = idFieldHits(input.analysis, lists, MAX_HITS);
    return () =>
      finish(
        input,
        text,
        reading,
        starts,
        starts.map((s) => s + ID_SIZE),
        starts.length >= MAX_HITS,
        "worker",
      );
  });
}
