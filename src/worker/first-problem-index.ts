/**
 * Which opened file of a partition the page shows first, found as the page finds it (the first file with an
 * error, else with a warning: ui/session/loading.ts firstProblem over the partition's findings in file order),
 * so that when it is a large `.index` cross-checked against its `.log` the worker keeps it for the open that
 * follows instead of checking its millions of entries a second time.
 */
import type { OpenedInput } from "../core/containers/index.ts";
import { keepIndexForShowing } from "./open-on-demand.ts";

interface Seen {
  readonly name: string;
  /** The opened index and its `.log`, when it is one worth keeping. */
  readonly index: { readonly opened: OpenedInput; readonly log: string } | null;
}

/** Watches a partition's files as they are opened (onFile) and keeps the first-problem index at the end. */
export class FirstProblemIndex {
  private firstError: Seen | null = null;
  private firstWarning: Seen | null = null;
  private lastLog: string | null = null;

  constructor(private readonly blobs: ReadonlyMap<string, Blob>) {}

  /** One file as openPartition records it, in the order its findings enter the partition's list. */
  see(name: string, opened: OpenedInput): void {
    const log = this.lastLog;
    this.lastLog = opened.format === "segment" ? name : null;
    const { errors, warnings } = opened.analysis.summary;
    if ((this.firstError || errors === 0) && (this.firstWarning || warnings === 0)) return;
    // Only a paged index cross-checked against the `.log` just before it: a small one is cheap to check again.
    const pair = opened.format === "index" && opened.entries && !opened.entries.inMemory && log === `${name.slice(0, -".index".length)}.log`;
    const seen: Seen = { name, index: pair && log ? { opened, log } : null };
    if (!this.firstError && errors > 0) this.firstError = seen;
    if (!this.firstWarning && warnings > 0) this.firstWarning = seen;
  }

  /** Keeps the index the page will show first, if the first problem is in one; lets the other go. */
  keep(): void {
    const shown = this.firstError ?? this.firstWarning;
    this.firstError = this.firstWarning = null;
    const index = shown?.index;
    const indexBlob = shown && this.blobs.get(shown.name);
    const logBlob = index && this.blobs.get(index.log);
    if (index && indexBlob && logBlob) keepIndexForShowing(indexBlob, shown.name, { name: index.log, input: logBlob }, index.opened);
  }
}
