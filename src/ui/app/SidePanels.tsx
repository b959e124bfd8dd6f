/** The panels beside the hex map: partition, diagnostics, container, diagram, legend, tables, inspector, edit and share. */
import { memo } from "react";
import type { LoadedInput, OpenPartition } from "../state/app-state.ts";
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

/** The side column; memoized, so a render for the hex map alone (the deferred input not caught up yet) skips it. */
export const SidePanels = memo(function SidePanels({ input, partition }: { input: LoadedInput | null; partition: OpenPartition | null }) {
  return (
    <div className="side">
      {partition && <PartitionView partition={partition} />}
      <DiagnosticsList input={input} />
      {input && <ContainerPanel input={input} />}
      {input && <IndexEntriesTable input={input} partition={partition} />}
      {input && <LayoutDiagram input={input} />}
      {/* Beside the hex map, not under it: opening the legend never takes rows away from the map. */}
      <details className="legend-box panel">
        <summary>Legend</summary>
        <Legend />
      </details>
      {input && <BatchesTable input={input} />}
      {input && <HeaderFieldsTable input={input} />}
      {input && <FramesTable input={input} />}
      {input && <FrameInspector input={input} />}
      <EditPanel />
      <SharePanel />
    </div>
  );
});
