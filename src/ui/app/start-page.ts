/** What the page shows first: the input a share link carries, else the default sample. */
import { decodeShareFragment, SHARE_PREFIX } from "../../lib/share-codec.ts";
import { loadInput, loadSample, reportInputProblem } from "./load.ts";
import { selectRange } from "../state/actions.ts";
import { envelopeStore } from "../state/app-state.ts";

let started = false;

/** Loads the input a share fragment carries and restores its selection; false when the fragment is not a share link. */
export async function openShareFragment(fragment: string): Promise<boolean> {
  if (!fragment.startsWith(SHARE_PREFIX)) return false;
  const shared = decodeShareFragment(fragment);
  if (!shared) {
    reportInputProblem("the share link is damaged: its data could not be decompressed");
    return false;
  }
  const { bytes } = shared;
  envelopeStore.set(shared.envelope ?? "none");
  await loadInput(shared.name, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  if (shared.selection) selectRange(shared.selection.start, shared.selection.end, "link");
  return true;
}

/** Loads the first input once per page (StrictMode runs effects twice in development). */
export async function startPage(): Promise<void> {
  if (started) return;
  started = true;
  window.addEventListener("hashchange", () => void openShareFragment(location.hash));
  if (await openShareFragment(location.hash)) return;
  const sample = new URLSearchParams(location.search).get("sample");
  await loadSample(sample ?? undefined);
}
