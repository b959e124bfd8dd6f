/** What the page shows first: the input a share link carries, else the default sample. */
import { MAX_SHARED_BYTES, SHARE_PREFIX, type ShareRefusal } from "../../lib/share-codec.ts";
import { AbortedError, AnalysisClient } from "../../worker/client.ts";
import { confirmDiscardEdits, editsAtStake } from "../session/discard-guard.ts";
import { formatOfAlias } from "../common/format-choice.ts";
import { loadInput, loadSample, reportInputProblem } from "../session/loading.ts";
import { selectRange } from "../state/actions.ts";
import { provenanceNote, provenanceStore } from "../share/provenance.ts";

let started = false;
// Links are inflated in a worker of their own: a hostile one costs that worker a fraction of a second, never the page.
const shareClient = new AnalysisClient();
let decoding: AbortController | null = null;

/** What opening a fragment did: not a share link, a refused one, or shown (or superseded). */
export type ShareOpen = ShareRefusal | "opened";

/** Loads the input a share fragment carries and restores its selection once that input is shown. */
export async function openShareFragment(fragment: string): Promise<ShareOpen> {
  if (!fragment.startsWith(SHARE_PREFIX)) return "not-a-link";
  decoding?.abort();
  const controller = new AbortController();
  decoding = controller;
  let result;
  try {
    result = await shareClient.decodeShare(fragment, controller.signal);
  } catch (err) {
    if (err instanceof AbortedError) return "opened"; // a newer link took over
    throw err;
  } finally {
    if (decoding === controller) decoding = null;
  }
  if (!result.ok) return result.reason;
  const shared = result.state;
  const { bytes } = shared;
  // Asked before anything changes, so staying keeps the shown input exactly as it was.
  if (editsAtStake() && !(await confirmDiscardEdits(`the share link's ${shared.name}`))) return "opened";
  // A redacted copy or a part says so on the page, and the share panel's report repeats it.
  const note = provenanceNote(shared);
  provenanceStore.set(note ? { name: shared.name, size: bytes.length, redacted: shared.redacted, part: shared.part } : null);
  const format = formatOfAlias(shared.format);
  const shown = await loadInput(shared.name, bytes, note, undefined, { format: format ?? "auto" });
  if (shown && shared.selection) selectRange(shared.selection.start, shared.selection.end, "link");
  // Said after loading, which clears earlier messages: a link naming no format opens auto-detected, and says so.
  if (shown && shared.format !== undefined && format === null)
    reportInputProblem(`the share link names an unknown format ${JSON.stringify(shared.format.slice(0, 40))}; it was opened with auto-detect`);
  return "opened";
}

const REFUSED: Record<Exclude<ShareOpen, "opened" | "not-a-link">, string> = {
  damaged: "the share link is damaged: its data could not be decompressed",
  "too-large": `the share link is too large: it would unpack to more than ${MAX_SHARED_BYTES >> 20} MiB, the most a link may carry; nothing was opened`,
};

function reportRefusal(opened: ShareOpen): void {
  if (opened === "damaged" || opened === "too-large") reportInputProblem(REFUSED[opened]);
}

/** Loads the first input once per page (StrictMode runs effects twice in development). */
export async function startPage(): Promise<void> {
  if (started) return;
  started = true;
  window.addEventListener("hashchange", () => {
    void openShareFragment(location.hash).then(reportRefusal);
  });
  const opened = await openShareFragment(location.hash);
  // Ready for a link opened later in this tab (hashchange), which then waits for no worker to load.
  shareClient.prepare();
  if (opened === "opened") return;
  const sample = new URLSearchParams(location.search).get("sample");
  await loadSample(sample ?? undefined);
  // Said after the sample is shown: loading clears earlier messages.
  reportRefusal(opened);
}
