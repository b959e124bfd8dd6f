/**
 * Which inputs the page reads on demand: a File from this size on is opened without reading it whole
 * (the worker streams it, the views read pages of it), so the page's memory does not grow with the
 * file. `?on-demand-from=BYTES` in the page's address moves the line (tests open small files so).
 */
import { STREAM_MIN_BYTES } from "../../core/walk/pool-policy.ts";

/** Files from this size on are read on demand unless the address says otherwise (core/walk/pool-policy.ts). */
export const ON_DEMAND_FROM_BYTES = STREAM_MIN_BYTES;

/** The size from which a File is read on demand. */
export function onDemandFrom(): number {
  if (typeof location === "undefined") return ON_DEMAND_FROM_BYTES;
  const asked = new URLSearchParams(location.search).get("on-demand-from");
  const bytes = asked === null ? NaN : Number(asked);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : ON_DEMAND_FROM_BYTES;
}

/** Tests: `?range-workers=N` walks an on-demand File over exactly N range workers and none of it in the analysis worker; 0: all of it there. */
export function rangeWorkersAsked(): number | undefined {
  if (typeof location === "undefined") return undefined;
  const n = Number(new URLSearchParams(location.search).get("range-workers") ?? NaN);
  return Number.isInteger(n) && n >= 0 && n <= 8 ? n : undefined;
}
