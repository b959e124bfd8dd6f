/**
 * Container fields in the hex map's kind codes: fillKinds() (core/view/byte-map.ts) colours what batches
 * claim; the bytes it leaves unattributed take the kind of the container field that holds them.
 */
import { KIND_CODE } from "./byte-map.ts";
import { containerFieldAt } from "../containers/field-at.ts";
import type { OpenedInput } from "../containers/types.ts";

/** Rewrites out[i] (the kind code of byte start + i) for every unattributed byte a container field holds. */
export function overlayContainerKinds(
  opened: Pick<OpenedInput, "container" | "entries" | "legacy">,
  bytes: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
): void {
  if (!opened.container) return;
  const none = KIND_CODE.unattributed;
  let i = start;
  while (i < end) {
    if (out[i - start] !== none) {
      i++;
      continue;
    }
    const f = containerFieldAt(opened, bytes, i);
    if (!f) {
      i++;
      continue;
    }
    const code = KIND_CODE[f.kind];
    const stop = Math.min(end, f.end);
    for (let k = i; k < stop; k++) if (out[k - start] === none) out[k - start] = code;
    i = Math.max(stop, i + 1);
  }
}
