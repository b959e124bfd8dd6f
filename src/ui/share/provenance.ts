/** What an opened share link says about its bytes: a redacted copy of which original, a part of how large an input. */
import type { SharedState } from "../../lib/share-codec.ts";
import { createStore } from "../state/store.ts";
import { hexOffset } from "../../format/values.ts";

/** Where the shown input came from, when a share link said so. */
export interface Provenance {
  /** The name and size of the input the link opened, to tell it from a later one. */
  readonly name: string;
  readonly size: number;
  readonly redacted?: SharedState["redacted"];
  readonly part?: SharedState["part"];
}

/** The provenance of the input a share link opened; null for any other input. */
export const provenanceStore = createStore<Provenance | null>(null);

const hex = (n: number) => hexOffset(n, 0);

/** The sentence the opened page shows about a link's bytes, or null when they are an input as it was. */
export function provenanceNote(shared: Pick<SharedState, "redacted" | "part">): string | null {
  const { redacted, part } = shared;
  const where = part ? `bytes ${hex(part.start)}..${hex(part.end)} of a ${part.size.toLocaleString("en-US")}-byte input` : null;
  if (redacted) {
    return `Redacted copy of SHA-256 ${redacted.originalSha256}${where ? ` (${where})` : ""}: ${redacted.what} were replaced and the checksums re-made, so the findings are the original's.`;
  }
  return part ? `Part of SHA-256 ${part.sha256}: ${where}.` : null;
}

/** The provenance of the shown input, if the link that opened it is still what is shown. */
export function provenanceOf(input: { readonly name: string; readonly source: { readonly size: number } } | null): Provenance | null {
  const p = provenanceStore.get();
  return p && input && p.name === input.name && p.size === input.source.size ? p : null;
}
