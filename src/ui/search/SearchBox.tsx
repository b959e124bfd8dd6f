/**
 * The Go to or search box (contracts.md §2) with its hits: Enter runs the query (Enter again, or
 * F3, goes to the next hit; Shift goes back), Ctrl+G and Ctrl+F focus the box from anywhere, Esc
 * cancels a search in flight. Hits are listed in "Search results" with where each one lies.
 */
import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent } from "react";
import { kindNeeds, locateByte, type InputWindows } from "../../core/view/byte-map.ts";
import { memoryBytes } from "../../lib/input-bytes.ts";
import { loadRanges, peekRanges, useBytesLanded } from "../common/input-windows.ts";
import type { Analysis } from "../../core/model/model.ts";
import { documentStore, type DocumentState } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { KIND_STYLE, SWATCH_CLASS } from "../common/kind-style.ts";
import { cancelSearch, clearSearch, runQuery, searchStore, selectHit, stepHit, MAX_HITS, type SearchState } from "./search-state.ts";
import "./search.css";
import { frameIndexInBatch } from "../../core/model/frame-columns.ts";

/** Hits listed at once; next/previous still reach every hit. */
const LISTED = 200;
const selectState = (s: SearchState) => s;
const selectInput = (d: DocumentState) => d.input;
const fmt = (n: number) => n.toLocaleString("en-US");

const NO_SOURCE = memoryBytes(new Uint8Array(0));

/** Where a hit lies, in words: batch, frame and field of its first byte (`bytes` hold kindNeeds of it). */
function whereText(analysis: Analysis, bytes: InputWindows, offset: number): { text: string; kind: keyof typeof KIND_STYLE } {
  const loc = locateByte(analysis, bytes, offset);
  const parts: string[] = [];
  if (loc.batch >= 0) parts.push(`batch ${loc.batch}`);
  if (loc.frame >= 0) parts.push(`frame ${frameIndexInBatch(analysis.batches, loc.frame)}`);
  parts.push(KIND_STYLE[loc.kind].label.replace(/^(batch|frame) /, ""));
  return { text: parts.join(" · "), kind: loc.kind };
}

/** The search box, its counts and next/previous, and the list of hits. */
export function SearchBox(): JSX.Element {
  const state = useStore(searchStore, selectState);
  const input = useStore(documentStore, selectInput);
  const [text, setText] = useState("");
  const boxRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const id = useId();

  // Another input or an edit makes the hits meaningless; the typed query stays. The same decode of the same input,
  // read into memory from the file it was read on demand from (session/resident.ts), keeps them.
  useEffect(() => {
    const held = searchStore.get().input;
    if (!held || held === input) return;
    if (input && held.opened === input.opened && held.analysis === input.analysis) searchStore.set((s) => ({ ...s, input }));
    else clearSearch();
  }, [input]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === "g" || e.key === "f" || e.key === "G" || e.key === "F")) {
        e.preventDefault();
        boxRef.current?.focus();
        boxRef.current?.select();
      } else if (e.key === "F3" && searchStore.get().starts.length > 0) {
        e.preventDefault();
        stepHit(e.shiftKey ? -1 : 1);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // The current hit stays in view in the list.
  const currentHit = state.current;
  useEffect(() => {
    listRef.current?.querySelector("[aria-current='true']")?.scrollIntoView({ block: "nearest" });
  }, [currentHit]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      const s = searchStore.get();
      if (s.status === "done" && s.text === text && s.starts.length > 0) stepHit(e.shiftKey ? -1 : 1);
      else void runQuery(text);
    } else if (e.key === "Escape" && searchStore.get().status === "running") {
      e.preventDefault();
      cancelSearch();
    }
  };

  const total = state.starts.length;
  const count = state.status === "done" ? `${fmt(total)}${state.capped ? "+" : ""} hit${total === 1 && !state.capped ? "" : "s"}` : "";
  const position = state.current >= 0 ? `${fmt(state.current + 1)} of ${count}` : count;
  const percent = state.progress && state.progress.total > 0 ? Math.floor((100 * state.progress.done) / state.progress.total) : 0;
  const shown = Math.min(total, LISTED);
  const first = state.current >= LISTED ? Math.min(state.current - (state.current % LISTED), Math.max(0, total - LISTED)) : 0;

  // Of an input read on demand, a listed hit in a truncated frame is named from that frame's payload_length, read from the file.
  const source = input?.source ?? NO_SOURCE;
  useBytesLanded(source);
  const listed = state.status === "done" && input ? Array.from({ length: shown }, (_, k) => state.starts[first + k] as number) : [];
  const hitBytes = peekRanges(source, input && !input.bytes ? listed.flatMap((at) => kindNeeds(input.analysis, at, at + 1)) : []);
  const missingKey = hitBytes.missing.map((r) => r.start).join();
  useEffect(() => {
    if (missingKey) loadRanges(source, hitBytes.missing, () => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the ranges are named by missingKey
  }, [source, missingKey]);

  return (
    <div className="search">
      <div className="search-bar" role="search">
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Go to or search
        </label>
        <input
          ref={boxRef}
          id={`${id}-q`}
          type="search"
          className="search-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Go to 0x3b5, batch 2, @1234, an id, hex bytes or text"
          aria-keyshortcuts="Control+G Control+F"
          aria-describedby={`${id}-says`}
          autoComplete="off"
          spellCheck={false}
          disabled={!input}
        />
        <button type="button" onClick={() => void runQuery(text)} disabled={!input}>
          Go
        </button>
        <button type="button" onClick={() => stepHit(-1)} disabled={total === 0} aria-keyshortcuts="Shift+F3" aria-label="Previous hit">
          ↑
        </button>
        <button type="button" onClick={() => stepHit(1)} disabled={total === 0} aria-keyshortcuts="F3" aria-label="Next hit">
          ↓
        </button>
        {state.status === "running" && (
          <>
            <progress max={100} value={percent} aria-label="Searching">
              {percent}%
            </progress>
            <button type="button" onClick={cancelSearch} aria-keyshortcuts="Escape">
              Cancel search
            </button>
          </>
        )}
        <span id={`${id}-says`} className="search-says" aria-live="polite" data-testid="search-says">
          {state.status === "running"
            ? `Searching for ${state.reading}… ${percent}%`
            : state.status === "done"
              ? `${position} · ${state.reading}${state.ranOn === "worker" ? " · searched in a worker" : ""}`
              : state.message}
          {state.status === "done" && total === 0 ? ` ${state.message}` : ""}
        </span>
      </div>
      {state.status === "done" && input && total > 0 && (
        <ol ref={listRef} className="search-results" aria-label="Search results" start={first + 1}>
          {Array.from({ length: shown }, (_, k) => {
            const i = first + k;
            const start = state.starts[i] as number;
            const where = whereText(input.analysis, hitBytes.windows, start);
            return (
              <li key={i} aria-current={i === state.current ? "true" : undefined} data-start={start}>
                <button type="button" className="search-hit" onClick={() => selectHit(i)}>
                  <span className="search-hit-off">0x{start.toString(16).padStart(8, "0")}</span>
                  <span className={`${SWATCH_CLASS} ${KIND_STYLE[where.kind].className}`} aria-hidden="true" />
                  <span className="search-hit-where">{where.text}</span>
                </button>
              </li>
            );
          })}
          {total > shown && (
            <li className="search-more">
              {fmt(total - shown)} more{state.capped ? ` (stopped at ${fmt(MAX_HITS)})` : ""}: use ↓ / F3
            </li>
          )}
        </ol>
      )}
    </div>
  );
}
