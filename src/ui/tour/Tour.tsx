/**
 * The guided tour for first visits: a strip under the status line (never a modal, so it blocks
 * nothing) that walks the sample through the steps of tour-steps.ts, outlining the part of the page
 * each one is about. Skipping or finishing it is remembered; Keyboard help reopens it.
 */
import { useEffect, type JSX } from "react";
import { createStore } from "../state/store.ts";
import { useStore } from "../state/store.ts";
import { TOUR_STEPS } from "./tour-steps.ts";
import "./tour.css";

const DONE_KEY = "iggy-explorer.tour-done";
const FOCUS_CLASS = "tour-focus";

/** The step shown, or null when the tour is closed. */
export const tourStore = createStore<number | null>(null);

const selectStep = (s: number | null) => s;

function remembered(): boolean {
  try {
    return localStorage.getItem(DONE_KEY) === "1";
  } catch {
    return true;
  }
}

function closeTour(): void {
  try {
    localStorage.setItem(DONE_KEY, "1");
  } catch {
    /* storage off: the tour shows again next time */
  }
  tourStore.set(null);
}

/** Opens the tour at its first step. */
export function startTour(): void {
  tourStore.set(0);
}

/** The tour strip; opens itself on a first visit. openSample loads a sample (the app shell owns loading). */
export function Tour({ openSample }: { openSample: (id: string) => void }): JSX.Element | null {
  const step = useStore(tourStore, selectStep);

  useEffect(() => {
    if (!remembered()) startTour();
  }, []);

  // Outline the step's part of the page and bring it into view; select what it talks about.
  useEffect(() => {
    if (step === null) return;
    const s = TOUR_STEPS[step];
    s?.show?.();
    const el = s?.target ? document.querySelector<HTMLElement>(s.target) : null;
    el?.classList.add(FOCUS_CLASS);
    el?.scrollIntoView({ block: "nearest" });
    return () => el?.classList.remove(FOCUS_CLASS);
  }, [step]);

  if (step === null) return null;
  const s = TOUR_STEPS[step]!;
  const last = step === TOUR_STEPS.length - 1;
  return (
    <section className="tour" role="region" aria-label="Guided tour" aria-live="polite">
      <p className="tour-count">
        Tour · step {step + 1} of {TOUR_STEPS.length}
      </p>
      <div className="tour-body">
        <h2 className="tour-title">{s.title}</h2>
        <p className="tour-text">{s.text}</p>
      </div>
      <div className="tour-buttons">
        {s.action && (
          <button type="button" onClick={() => openSample(s.action!.sample)}>
            {s.action.label}
          </button>
        )}
        {step > 0 && (
          <button type="button" onClick={() => tourStore.set(step - 1)}>
            Previous step
          </button>
        )}
        {last ? (
          <button type="button" className="tour-primary" onClick={closeTour}>
            Finish tour
          </button>
        ) : (
          <button type="button" className="tour-primary" onClick={() => tourStore.set(step + 1)}>
            {step === 0 ? "Start tour" : "Next step"}
          </button>
        )}
        {!last && (
          <button type="button" onClick={closeTour}>
            Skip tour
          </button>
        )}
      </div>
    </section>
  );
}
