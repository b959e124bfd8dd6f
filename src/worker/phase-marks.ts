/**
 * Marks of an open's phases on the thread's performance timeline ("iggy:" names), which `npm run bench:page` reads
 * through the DevTools protocol to say where the opening's time goes (issue #27). One mark per phase is kept.
 */

const PHASES = ["request", "walk-start", "read-walked", "merged", "opened", "posted", "result", "shown"] as const;

/** Names the opening's phases, in the order they happen across the worker and the page. */
export type OpenPhase = (typeof PHASES)[number];

/** Marks one phase now, in place of the mark of the open before (a request drops them all): one mark per phase is kept. */
export function markPhase(phase: OpenPhase): void {
  if (typeof performance === "undefined" || typeof performance.mark !== "function") return;
  for (const p of phase === "request" ? PHASES : [phase]) performance.clearMarks(`iggy:${p}`);
  performance.mark(`iggy:${phase}`);
}
