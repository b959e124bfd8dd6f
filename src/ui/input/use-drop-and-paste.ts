/** Window-level drop and paste: a file dropped anywhere or a paste of binary, hex, xxd or base64 becomes the input. */
import { useEffect, useState } from "react";
import { decodePastedText } from "../../lib/paste-decode.ts";
import { loadFiles, loadInput, reportInputProblem } from "../session/loading.ts";
import { partitionLabel } from "../session/partition-files.ts";
import { droppedFiles } from "./dropped-files.ts";

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.tagName === "INPUT" || target.tagName === "TEXTAREA");
}

/** Installs the listeners; returns true while a file is dragged over the page (for the drop overlay). */
export function useDropAndPaste(): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const onDragEnter = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) {
        depth++;
        setDragging(true);
      }
    };
    const onDragLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDragOver = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const data = e.dataTransfer;
      if (!data) return;
      // A folder or several files open as one partition; the items must be read before this handler returns.
      void droppedFiles(data).then(({ files, folder }) => {
        if (files.length === 0) reportInputProblem(folder ? `the folder ${folder} holds no files` : "the drop held no files");
        else void loadFiles(files, folder ? partitionLabel(files.length, folder) : undefined);
      });
    };
    const onPaste = (e: ClipboardEvent) => {
      if (isEditable(e.target)) return;
      const data = e.clipboardData;
      if (!data) return;
      const file = data.files[0];
      if (file) {
        e.preventDefault();
        void loadInput(file.name || "pasted file", file);
        return;
      }
      const text = data.getData("text/plain");
      if (!text) return;
      e.preventDefault();
      const result = decodePastedText(text);
      if (!result.ok) {
        reportInputProblem(result.reason);
        return;
      }
      const { bytes } = result;
      void loadInput(`pasted ${result.form} (${bytes.length} bytes)`, bytes);
    };
    window.addEventListener("dragenter", onDragEnter);
    window.addEventListener("dragleave", onDragLeave);
    window.addEventListener("dragover", onDragOver);
    window.addEventListener("drop", onDrop);
    window.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("dragenter", onDragEnter);
      window.removeEventListener("dragleave", onDragLeave);
      window.removeEventListener("dragover", onDragOver);
      window.removeEventListener("drop", onDrop);
      window.removeEventListener("paste", onPaste);
    };
  }, []);
  return dragging;
}
