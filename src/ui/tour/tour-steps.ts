/** The guided tour's steps: what each says, which part of the page it points at, and what it selects there. */
import { selectFrame, selectRange } from "../state/actions.ts";
import { documentStore } from "../state/app-state.ts";

/** One step of the tour. */
export interface TourStep {
  readonly title: string;
  readonly text: string;
  /** CSS selector of the part of the page the step points at, or null. */
  readonly target: string | null;
  /** Selects what the step talks about in the shown input. */
  readonly show?: () => void;
  /** An extra button, e.g. open a violation sample. */
  readonly action?: { readonly label: string; readonly sample: string };
}

function firstFrame(): number {
  const a = documentStore.get().input?.analysis;
  return a && a.frames.count > 0 ? 0 : -1;
}

// Said in words, as the welcome reads; a longer tour says the digits.
const NUMBER_WORDS = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];

/** The welcome step, which counts the steps (itself included) the way the tour numbers them ("step 1 of N"). */
function welcome(count: number): TourStep {
  return {
    title: "Welcome",
    text: `This page opens Apache Iggy message batches and shows what every byte is. ${NUMBER_WORDS[count] ?? String(count)} short steps, this one included, walk the sample on screen; nothing leaves your machine.`,
    target: null,
  };
}

// The steps after the welcome.
const WALK: readonly TourStep[] = [
  {
    title: "A batch starts with a 256-byte header",
    text: "The Layout diagram draws its fields to scale, in the hex map's colours, with their values. The server stamps partition_id, base_offset and base_timestamp when it appends; the producer sets the rest.",
    target: ".dg-panel",
    show: () => selectRange(0, 256, "keyboard"),
  },
  {
    title: "Then come the frames",
    text: "Each frame is a 48-byte header, the payload, then optional user headers. The Frames table lists them; selecting a row selects its bytes in the hex map.",
    target: ".hex-panel",
    show: () => {
      const f = firstFrame();
      if (f >= 0) selectFrame(f, "keyboard");
    },
  },
  {
    title: "Checksums",
    text: "A frame's first 8 bytes are an XXH3-64 checksum of its bytes 8..end; the batch header's batch_checksum covers the header and every frame checksum. Hover a checksum in the hex map to see exactly what it covers.",
    target: ".hex-panel",
    show: () => {
      const a = documentStore.get().input?.analysis;
      if (a && a.frames.count > 0) selectRange(a.frames.start[0] as number, (a.frames.start[0] as number) + 8, "keyboard");
    },
  },
  {
    title: "What a violation looks like",
    text: "A problem is flagged on its exact bytes: a corner flag, a bar and hatching in the hex map, a mark in the Overview strip beside it, and an entry in Diagnostics that jumps there.",
    target: ".diagnostics-panel",
    action: { label: "Show a violation", sample: "frame-checksum-mismatch" },
  },
  {
    title: "Share a finding",
    text: "Copy share link puts the whole input, compressed, in the link's #fragment, which browsers never send to a server. Redact payloads first for sensitive captures.",
    target: ".share-panel",
  },
  {
    title: "Find your way",
    text: "Go to an offset, batch N, a message offset (@1234) or an id, or search hex bytes and text, with Ctrl+G. Click or drag the Overview to jump anywhere in a large file. The tour reopens from Keyboard help.",
    target: ".search",
  },
];

/** The steps, in order. */
export const TOUR_STEPS: readonly TourStep[] = [welcome(WALK.length + 1), ...WALK];
