/** What the builder says of the form (problems, warnings) and of the bytes it built (the analyzer's findings). */
import type { Analysis } from "../../core/model/model.ts";
import type { FormIssue } from "./form-to-spec.ts";

/** What analyze() says of the built bytes: nothing, or each finding's code. */
export function AnalyzerVerdict({ analysis }: { analysis: Analysis }) {
  if (analysis.diagnostics.length === 0) return <p className="note">Analyzer: no findings.</p>;
  return (
    <div>
      <p className="note">Analyzer findings:</p>
      <ul className="issue-list">
        {analysis.diagnostics.map((d, i) => (
          <li key={i} className={`issue-${d.severity}`}>
            <strong>{d.severity}</strong> {d.code}: {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A summary list of form problems or warnings. */
export function IssueList({ title, issues, kind }: { title: string; issues: readonly FormIssue[]; kind: "error" | "warning" }) {
  if (issues.length === 0) return null;
  return (
    <div className={`issues issues-${kind}`}>
      <p className="issues-title">
        {kind === "error" ? "✖" : "⚠"} {title}:
      </p>
      <ul className="issue-list">
        {issues.map((e, i) => (
          <li key={`${e.field}-${i}`}>
            {e.where}: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
