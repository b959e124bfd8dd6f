/**
 * The inputs Compare batches reads besides the one shown: the original before edits (analysed on
 * the page's thread up to the inline re-check size, in a worker above it), and a second file picked
 * in the dialog (decoded in a worker of its own, on demand when it is large).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { openInputWith, type FormatName } from "../../core/containers/index.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import type { Analysis } from "../../core/model/model.ts";
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { AbortedError, AnalysisClient } from "../../worker/client.ts";
import { fileBytes, memoryBytes, type InputBytes } from "../../lib/input-bytes.ts";
import { INLINE_RECHECK_LIMIT } from "../session/editing.ts";
import { sourceOf } from "../session/input-source.ts";
import { onDemandFrom } from "../session/on-demand.ts";

/** The analysis of the original input (null while it runs or when there is no edit), or why it failed. */
export function useOriginalAnalysis(
  xxh: Xxh3 | null,
  original: Uint8Array | null,
  startOffset: number,
  format: FormatName | undefined,
  fileName: string | undefined,
): { originalAnalysis: Analysis | null; originalFailed: string | null } {
  const originalLarge = original !== null && original.length > INLINE_RECHECK_LIMIT;
  const inlineOriginal = useMemo<Analysis | null>(() => {
    if (!xxh || !original || originalLarge) return null;
    // The original is read as the same format as the input, so a container's bytes compare as its batches.
    return format && format !== "batches" ? openInputWith(xxh, original, { name: fileName, format }).analysis : analyzeWith(xxh, original, { startOffset });
  }, [xxh, original, startOffset, originalLarge, format, fileName]);
  const [workerOriginal, setWorkerOriginal] = useState<{ of: Uint8Array; analysis: Analysis } | { of: Uint8Array; error: string } | null>(null);
  useEffect(() => {
    if (!original || !originalLarge) return;
    const client = new AnalysisClient();
    const controller = new AbortController();
    // The File the input was opened from, when there is one: the worker reads it, and no copy of the original is made.
    const from = sourceOf(original) ?? original;
    const opening =
      format && format !== "batches"
        ? client.open(from, controller.signal, { name: fileName, format })
        : client.analyze(from, controller.signal, undefined, startOffset);
    opening.then(
      (r) => setWorkerOriginal({ of: original, analysis: r.analysis }),
      (err: unknown) => {
        if (!(err instanceof AbortedError)) setWorkerOriginal({ of: original, error: (err as Error).message });
      },
    );
    return () => {
      controller.abort();
      client.terminate();
    };
  }, [original, originalLarge, startOffset, format, fileName]);
  const workerResult = workerOriginal && workerOriginal.of === original ? workerOriginal : null;
  return {
    originalAnalysis: originalLarge ? (workerResult && "analysis" in workerResult ? workerResult.analysis : null) : inlineOriginal,
    originalFailed: originalLarge && workerResult !== null && "error" in workerResult ? workerResult.error : null,
  };
}

/** A second file to compare with: in memory, or (as large as an input read on demand) read a compared batch at a time from its File. */
export interface OtherFile {
  readonly name: string;
  readonly bytes: Uint8Array | null;
  readonly source: InputBytes;
  readonly analysis: Analysis;
}

/** The second file, the note on its decoding (progress or failure), and how to open one; `onOpened` runs once it is decoded. */
export function useOtherFile(
  startOffset: number,
  onOpened: () => void,
): { other: OtherFile | null; otherNote: string | null; openOther: (file: File | undefined) => Promise<void> } {
  const [other, setOther] = useState<OtherFile | null>(null);
  const [otherNote, setOtherNote] = useState<string | null>(null);
  const otherClient = useRef<{ client: AnalysisClient; controller: AbortController } | null>(null);
  // It lives while the dialog is open.
  useEffect(
    () => () => {
      otherClient.current?.controller.abort();
      otherClient.current?.client.terminate();
    },
    [],
  );
  const openOther = async (file: File | undefined) => {
    if (!file) return;
    otherClient.current?.controller.abort();
    const job = { client: otherClient.current?.client ?? new AnalysisClient(), controller: new AbortController() };
    otherClient.current = job;
    let shownPercent = -1;
    const progress = (done: number, total: number) => {
      const percent = total > 0 ? Math.floor((100 * done) / total) : 0;
      if (percent === shownPercent) return;
      shownPercent = percent;
      setOtherNote(`Decoding ${file.name}: ${percent}%…`);
    };
    progress(0, file.size);
    try {
      const onDemandOther = startOffset === 0 && file.size >= onDemandFrom();
      const r = onDemandOther
        ? await job.client.open(file, job.controller.signal, { name: file.name, format: "batches", onDemand: true, onProgress: progress })
        : await job.client.analyze(file, job.controller.signal, progress, startOffset);
      if (otherClient.current !== job) return;
      setOther({ name: file.name, bytes: r.bytes, source: r.bytes ? memoryBytes(r.bytes) : fileBytes(file), analysis: r.analysis });
      setOtherNote(null);
      onOpened();
    } catch (err) {
      if (err instanceof AbortedError || otherClient.current !== job) return;
      setOtherNote(`Could not read ${file.name}: ${(err as Error).message}`);
    }
  };
  return { other, otherNote, openOther };
}
