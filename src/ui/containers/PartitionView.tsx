/**
 * The partition view: the verdict on both axes (what the server does at boot, what the checks found), then the
 * segments of a dropped folder with their ranges, sizes, both axes, chain and index checks; choosing one opens it.
 * The columns that judge (Server, Findings, Chain, Index) follow the name and offsets; batches, size and times sit
 * in the row under each segment with its recovery sentence, so the judging columns stay in sight in the side column.
 */
import { visibleText } from "../../lib/text-escape.ts";
import { Fragment, useMemo } from "react";
import type { OpenPartition } from "../state/app-state.ts";
import { showPartitionFile } from "../session/loading.ts";
import { otherFiles, segmentRows } from "./partition-rows.ts";
import { findingsVerdict } from "../../core/containers/verdict.ts";

/** Lists the open partition; the shown segment's row is marked current. */
export function PartitionView({ partition }: { partition: OpenPartition }) {
  const { result, shown } = partition;
  const rows = useMemo(() => segmentRows(result), [result]);
  const others = useMemo(() => otherFiles(result), [result]);
  const findings = findingsVerdict(result.summary);
  const serverTone = result.outcome.kind === "loads" ? "ok" : result.outcome.kind === "truncates" ? "warn" : "bad";
  return (
    <section className="panel partition-panel" aria-labelledby="partition-heading">
      <h2 id="partition-heading">
        Partition <span className="count">{rows.length} segments</span>
      </h2>
      <dl className="partition-verdict" data-verdict={result.verdict} aria-label="Partition verdict">
        <dt>Server</dt>
        <dd className={`tone-${serverTone}`} data-axis="server" data-outcome={result.outcome.kind}>
          {result.sentence}
        </dd>
        <dt>Findings</dt>
        <dd className={`tone-${findings.clean ? "ok" : "bad"}`} data-axis="findings">
          {findings.words} in the files{findings.clean ? "" : " (listed under Diagnostics)"}
        </dd>
      </dl>
      <div className="table-scroll">
        <table className="partition-table" aria-label="Segments">
          <thead>
            <tr>
              <th>Segment</th>
              <th>Offsets</th>
              <th>Server</th>
              <th>Findings</th>
              <th>Chain</th>
              <th>Index</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const current = shown === r.name || shown === r.indexName ? "true" : undefined;
              return (
                <Fragment key={r.name}>
                  <tr aria-current={current} data-segment={r.name} className="segment-row">
                    <td className="partition-name">
                      <button type="button" onClick={() => void showPartitionFile(r.name)} title={`Open ${visibleText(r.name)} in the hex map and tables`}>
                        {visibleText(r.name)}
                      </button>
                      {r.indexName && (
                        <button type="button" className="link-button" onClick={() => void showPartitionFile(r.indexName!)} title={`Open ${r.indexName}`}>
                          .index
                        </button>
                      )}
                    </td>
                    <td>{r.offsets}</td>
                    <td className={`tone-${r.serverTone}`} data-axis="server">
                      {r.server}
                    </td>
                    <td className={`tone-${r.tone}`} data-verdict={r.tone} data-axis="findings">
                      {r.findings}
                    </td>
                    <td className={`tone-${r.chainOk ? "ok" : "bad"}`}>{r.chain}</td>
                    <td className={`tone-${r.indexOk ? "ok" : "bad"}`}>{r.indexCheck}</td>
                  </tr>
                  <tr aria-current={current} data-recovery-of={r.name} className="recovery-row">
                    <td colSpan={6} className="recovery-sentence">
                      <span className="partition-facts">
                        {r.batches} batches · {r.size.toLocaleString("en-US")} B · {r.times.replace(" .. ", " → ")}
                      </span>{" "}
                      {r.recovery}
                    </td>
                  </tr>
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {others.length > 0 && (
        <>
          <h3>Other files</h3>
          <ul className="partition-others" aria-label="Files not in the chain">
            {others.map((f) => (
              <li key={f.name} data-file={f.name}>
                {partition.files.has(f.name) && !f.why.startsWith("not a") && f.size > 0 && !f.why.includes("limit") ? (
                  <button type="button" className="link-button" onClick={() => void showPartitionFile(f.name)}>
                    {visibleText(f.name)}
                  </button>
                ) : (
                  <span>{visibleText(f.name)}</span>
                )}{" "}
                ({f.size.toLocaleString("en-US")} B): {visibleText(f.why)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
