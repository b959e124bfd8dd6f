/** The partition view: the segments of a dropped folder with their ranges, sizes, verdicts, chain and index checks; choosing one opens it. */
import { Fragment, useMemo } from "react";
import type { OpenPartition } from "../state/app-state.ts";
import { showPartitionFile } from "../session/loading.ts";
import { otherFiles, segmentRows } from "./partition-rows.ts";

/** Lists the open partition; the shown segment's row is marked current. */
export function PartitionView({ partition }: { partition: OpenPartition }) {
  const { result, shown } = partition;
  const rows = useMemo(() => segmentRows(result), [result]);
  const others = useMemo(() => otherFiles(result), [result]);
  return (
    <section className="panel partition-panel" aria-labelledby="partition-heading">
      <h2 id="partition-heading">
        Partition <span className="count">{rows.length} segments</span>
      </h2>
      <p className={`partition-verdict tone-${result.verdict === "ok" ? "ok" : "bad"}`} data-verdict={result.verdict} aria-label="Partition verdict">
        {result.sentence}
      </p>
      <div className="table-scroll">
        <table className="partition-table" aria-label="Segments">
          <thead>
            <tr>
              <th>Segment</th>
              <th>Offsets</th>
              <th>Time</th>
              <th>Size</th>
              <th>Batches</th>
              <th>Verdict</th>
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
                    <td>
                      <button type="button" onClick={() => void showPartitionFile(r.name)} title={`Open ${r.name} in the hex map and tables`}>
                        {r.name}
                      </button>
                      {r.indexName && (
                        <button type="button" className="link-button" onClick={() => void showPartitionFile(r.indexName!)} title={`Open ${r.indexName}`}>
                          .index
                        </button>
                      )}
                    </td>
                    <td>{r.offsets}</td>
                    <td className="partition-time">
                      {r.times.split(" .. ").map((t, i) => (
                        <div key={i}>
                          {i > 0 ? "→ " : ""}
                          {t}
                        </div>
                      ))}
                    </td>
                    <td>{r.size.toLocaleString("en-US")} B</td>
                    <td>{r.batches}</td>
                    <td className={`tone-${r.tone}`} data-verdict={r.tone}>
                      {r.verdict}
                    </td>
                    <td className={`tone-${r.chainOk ? "ok" : "bad"}`}>{r.chain}</td>
                    <td className={`tone-${r.indexOk ? "ok" : "bad"}`}>{r.indexCheck}</td>
                  </tr>
                  <tr aria-current={current} data-recovery-of={r.name} className="recovery-row">
                    <td colSpan={8} className="recovery-sentence">
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
                    {f.name}
                  </button>
                ) : (
                  <span>{f.name}</span>
                )}{" "}
                ({f.size.toLocaleString("en-US")} B): {f.why}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
