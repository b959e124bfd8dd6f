/** The composition root: toolbar, status, hex map with legend, and the decoded panels. */
import { visibleText } from "../../lib/text-escape.ts";
import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState } from "react";
import { captureStore, documentStore, partitionStore, type DocumentState, type OpenCapture, type OpenPartition } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { InputBar } from "../input/InputBar.tsx";
import { useDropAndPaste } from "../input/use-drop-and-paste.ts";
import { StatusLine } from "./StatusLine.tsx";
import { HelpOverlay } from "./HelpOverlay.tsx";
import { HexView } from "../hex/HexView.tsx";
import { SidePanels } from "./SidePanels.tsx";
import { startPage } from "./start-page.ts";
import { loadSample } from "../session/loading.ts";
// The dialogs' code loads on first open, but their styles stay here, at the dialogs' place in the cascade: rules of
// equal specificity resolve by order, and a stylesheet loaded later would win where it lost before.
import "../common/dialog.css";
import "../builder/builder.css";
import "../diff/diff.css";
import { DiscardEditsDialog } from "../edit/DiscardEditsDialog.tsx";
import { SearchBox } from "../search/SearchBox.tsx";
import { Overview } from "../overview/Overview.tsx";
import { useTopHeight } from "./use-top-height.ts";
import { Tour, startTour } from "../tour/Tour.tsx";
import { SettingsMenu } from "./SettingsMenu.tsx";

const BuilderDialog = lazy(() => import("../builder/BuilderDialog.tsx").then((m) => ({ default: m.BuilderDialog })));
const DiffDialog = lazy(() => import("../diff/DiffDialog.tsx").then((m) => ({ default: m.DiffDialog })));

const selectInput = (s: DocumentState) => s.input;
const selectPartition = (p: OpenPartition | null) => p;
const hasCapture = (c: OpenCapture | null) => c !== null;

/** The whole page. */
export function App() {
  const input = useStore(documentStore, selectInput);
  const partition = useStore(partitionStore, selectPartition);
  const capture = useStore(captureStore, hasCapture);
  // The panels beside the hex map follow a new input in a render of their own: the hex map and the status line
  // show it first, so opening a large file is two shorter main-thread tasks, not one long one.
  const sideInput = useDeferredValue(input);
  const sidePartition = useDeferredValue(partition);
  const dragging = useDropAndPaste();
  const [help, setHelp] = useState(false);
  const [dialog, setDialog] = useState<"build" | "diff" | null>(null);
  const topRef = useRef<HTMLElement>(null);
  useTopHeight(topRef);

  useEffect(() => {
    void startPage();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key === "?" && !(t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA"))) {
        e.preventDefault();
        setHelp((h) => !h);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="app">
      <header className="top" ref={topRef}>
        <div className="toolbar">
          <h1>Iggy Batch Explorer</h1>
          <InputBar />
          <button type="button" onClick={() => setDialog("build")}>
            Build a batch
          </button>
          <button type="button" onClick={() => setDialog("diff")} disabled={!input}>
            Compare batches
          </button>
          <button type="button" className="help-button" onClick={() => setHelp(true)} aria-keyshortcuts="?">
            Keyboard help
          </button>
          <SettingsMenu />
        </div>
        <StatusLine settling={sideInput !== input || sidePartition !== partition} />
        <Tour openSample={(id) => void loadSample(id)} />
      </header>
      <main className="workspace">
        <section className="panel hex-panel" aria-labelledby="hex-heading">
          <h2 id="hex-heading">Bytes{(partition || capture) && input ? <span className="shown-file"> · {visibleText(input.name)}</span> : null}</h2>
          <SearchBox />
          {input ? (
            <div className="hex-body">
              <HexView input={input} />
              <Overview input={input} />
            </div>
          ) : (
            <p className="empty">Drop a batch file, paste bytes, or pick a sample.</p>
          )}
        </section>
        <SidePanels input={sideInput} partition={sidePartition} />
      </main>
      <footer className="privacy">Everything runs in this tab: your bytes never leave your machine.</footer>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop to open
        </div>
      )}
      {help && (
        <HelpOverlay
          onClose={() => setHelp(false)}
          onTour={() => {
            setHelp(false);
            startTour();
          }}
        />
      )}
      <Suspense fallback={null}>
        {dialog === "build" && <BuilderDialog onClose={() => setDialog(null)} />}
        {dialog === "diff" && <DiffDialog onClose={() => setDialog(null)} />}
      </Suspense>
      <DiscardEditsDialog />
    </div>
  );
}
