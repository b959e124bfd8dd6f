/** The panels beside the hex map: partition, diagnostics, container, tables, diagram, inspector, legend, edit and share. */
import { memo } from "react";
import { captureStore, type LoadedInput, type OpenCapture, type OpenPartition } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { MessagesView } from "../tables/MessagesView.tsx";
import { Legend } from "../hex/Legend.tsx";
import { BatchesTable } from "../tables/BatchesTable.tsx";
import { HeaderFieldsTable } from "../tables/HeaderFieldsTable.tsx";
import { FramesTable } from "../tables/FramesTable.tsx";
import { FrameInspector } from "../inspector/FrameInspector.tsx";
import { SharePanel } from "../share/SharePanel.tsx";
import { EditPanel } from "../edit/EditPanel.tsx";
import { PartitionView } from "../containers/PartitionView.tsx";
import { ContainerPanel } from "../containers/ContainerPanel.tsx";
import { IndexEntriesTable } from "../containers/IndexEntriesTable.tsx";
import "../containers/containers.css";
import { LayoutDiagram } from "../diagram/LayoutDiagram.tsx";
import { DiagnosticsList } from "../diagnostics/DiagnosticsList.tsx";
import { Fold, PanelJumps, type PanelLink } from "./Fold.tsx";

/**
 * The side column; memoized, so a render for the hex map alone (the deferred input not caught up yet) skips it.
 * What says what is wrong comes first (partition, diagnostics), then the tables, then the pictures and tools;
 * every panel can be collapsed, and the jump bar reaches any of them in one click.
 */
const hasCapture = (c: OpenCapture | null) => c !== null;

export const SidePanels = memo(function SidePanels({ input, partition }: { input: LoadedInput | null; partition: OpenPartition | null }) {
  const capture = useStore(captureStore, hasCapture);
  const links: PanelLink[] = [
    ...(partition ? [{ id: "partition", label: "Partition" }] : []),
    ...(capture ? [{ id: "messages", label: "Messages" }] : []),
    { id: "diagnostics", label: "Diagnostics" },
    ...(input
      ? [
          { id: "batches", label: "Batches" },
          { id: "frames", label: "Frames" },
          { id: "layout", label: "Layout" },
          { id: "header", label: "Batch header" },
          { id: "inspector", label: "Inspector" },
        ]
      : []),
    { id: "edit", label: "Edit" },
    { id: "share", label: "Share" },
  ];
  return (
    <div className="side">
      <PanelJumps panels={links} />
      {partition && (
        <Fold id="partition" label="Partition">
          <PartitionView partition={partition} />
        </Fold>
      )}
      {capture && (
        <Fold id="messages" label="Messages">
          <MessagesView />
        </Fold>
      )}
      <Fold id="diagnostics" label="Diagnostics">
        <DiagnosticsList input={input} />
      </Fold>
      {input && (
        <Fold id="container" label="Container">
          <ContainerPanel input={input} />
        </Fold>
      )}
      {input && (
        <Fold id="batches" label="Batches">
          <BatchesTable input={input} />
        </Fold>
      )}
      {input && (
        <Fold id="frames" label="Frames">
          <FramesTable input={input} />
        </Fold>
      )}
      {input && (
        <Fold id="layout" label="Layout">
          <LayoutDiagram input={input} />
        </Fold>
      )}
      {input && (
        <Fold id="header" label="Batch header">
          <HeaderFieldsTable input={input} />
        </Fold>
      )}
      {input && (
        <Fold id="inspector" label="Frame inspector">
          <FrameInspector input={input} />
        </Fold>
      )}
      {input && (
        <Fold id="index" label="Index entries">
          <IndexEntriesTable input={input} partition={partition} />
        </Fold>
      )}
      {/* Beside the hex map, not under it: opening the legend never takes rows away from the map. */}
      <details className="legend-box panel">
        <summary>Legend</summary>
        <Legend />
      </details>
      <Fold id="edit" label="Edit">
        <EditPanel />
      </Fold>
      <Fold id="share" label="Share & export">
        <SharePanel />
      </Fold>
    </div>
  );
});
