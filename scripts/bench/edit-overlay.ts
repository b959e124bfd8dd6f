/** The big-input editing figure: one byte edit and one undo through EditOverlay on a 1 GiB input, time and memory. */
import { EditOverlay } from "../../src/core/edit/edit-overlay.ts";

/** Times one edit, one undo and the download pieces on `mib` MiB; memory is what the edit history holds and RSS growth. */
export function measureEditOverlay(mib = 1024): string {
  const original = new Uint8Array(mib << 20);
  original.fill(0x5a, 0, 1 << 20); // touch a page range so RSS reflects a real input
  const rss0 = process.memoryUsage.rss();
  const overlay = new EditOverlay(original);
  const at = Math.floor(original.length * 0.7);
  const t0 = performance.now();
  overlay.apply("byte", [{ offset: at, bytes: Uint8Array.of(0xab, 0xcd) }]);
  const t1 = performance.now();
  overlay.undo();
  const t2 = performance.now();
  overlay.redo();
  const parts = overlay.parts();
  const t3 = performance.now();
  const rss = process.memoryUsage.rss() - rss0;
  if (overlay.byteAt(at) !== 0xab || original[at] !== 0) throw new Error("edit overlay bench: wrong bytes");
  return (
    `edit overlay: ${mib.toLocaleString("en-US")} MiB input: one 2-byte edit ${((t1 - t0) * 1000).toFixed(0)} µs, one undo ${((t2 - t1) * 1000).toFixed(0)} µs, ` +
    `redo + download pieces (${parts.length} parts, no copy) ${((t3 - t2) * 1000).toFixed(0)} µs; history holds ${overlay.heldBytes()} B, RSS +${(rss / 2 ** 20).toFixed(1)} MiB`
  );
}
