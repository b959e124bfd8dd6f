/** What the page shows first: the input a share link carries, else the default sample. */
import { decodeShareFragment, SHARE_PREFIX } from "../../lib/share-codec.ts";
import { envelopeById } from "../../core/envelopes.ts";
import { loadInput, loadSample, reportInputProblem } from "../session/loading.ts";
import { selectRange } from "../state/actions.ts";
import { envelopeStore } from "../state/app-state.ts";

let started = false;

/** What opening a fragment did: not a share link, a damaged one, or shown (or superseded). */
export type ShareOpen = "not-a-link" | "damaged" | "opened";

/** Loads the input a share fragment carries and restores its selection once that input is shown. */
export async function openShareFragment(fragment: string): Promise<ShareOpen> {
  if (!fragment.startsWith(SHARE_PREFIX)) return "not-a-link";
  const shared = decodeShareFragment(fragment);
  if (!shared) return "damaged";
  const { bytes } = shared;
  envelopeStore.set(envelopeById(shared.envelope ?? "none")?.id ?? "none");
  const shown = await loadInput(shared.name, bytes);
  if (shown && shared.selection) selectRange(shared.selection.start, shared.selection.end, "link");
  return "opened";
}

const DAMAGED = "the share link is damaged: its data could not be decompressed (or is larger than a link may carry)";

/** Loads the first input once per page (StrictMode runs effects twice in development). */
export async function startPage(): Promise<void> {
  if (started) return;
  started = true;
  window.addEventListener("hashchange", () => {
    void openShareFragment(location.hash).then((r) => { if (r === "damaged") reportInputProblem(DAMAGED); });
  });
  const opened = await openShareFragment(location.hash);
  if (opened === "opened") return;
  const sample = new URLSearchParams(location.search).get("sample");
  await loadSample(sample ?? undefined);
  // Said after the sample is shown: loading clears earlier messages.
  if (opened === "damaged") reportInputProblem(DAMAGED);
}
