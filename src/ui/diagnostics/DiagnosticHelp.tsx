/**
 * Why a finding matters, from the code table's help (format/diagnostic-help.ts): the rule, what Apache
 * Iggy's server does with such bytes, likely causes, the upstream source that decides it, and a link to
 * the spec in this repository. The specs are bundled with the page (Vite emits them as files), so the
 * link needs no other origin.
 */
import { DIAGNOSTIC_HELP } from "../../format/diagnostic-help.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import batchFormatUrl from "../../../docs/spec/batch-format.md?url";
import containersUrl from "../../../docs/spec/containers.md?url";
import capturesUrl from "../../../docs/spec/captures.md?url";
import contractsUrl from "../../../docs/spec/contracts.md?url";

// The specs the help names, by their path in the repository, to the page's own copy.
const SPEC_URLS: Readonly<Record<string, string>> = {
  "docs/spec/batch-format.md": batchFormatUrl,
  "docs/spec/containers.md": containersUrl,
  "docs/spec/captures.md": capturesUrl,
  "docs/spec/contracts.md": contractsUrl,
};

/** The help of one code, as a definition list with its spec link. */
export function DiagnosticHelp({ code, id }: { code: DiagnosticCode; id?: string }) {
  const h = DIAGNOSTIC_HELP[code];
  const url = SPEC_URLS[h.spec];
  return (
    <dl className="diag-help" id={id} aria-label={`Why ${code} matters`} data-help-of={code}>
      <dt>Rule</dt>
      <dd>{h.rule}</dd>
      <dt>Server</dt>
      <dd>{h.server}</dd>
      <dt>Likely causes</dt>
      <dd>{h.causes}</dd>
      <dt>Upstream</dt>
      <dd>
        <code>apache/iggy {h.upstream}</code>
      </dd>
      <dt>Spec</dt>
      <dd>
        {url ? (
          <a href={url} target="_blank" rel="noreferrer">
            {h.spec}
          </a>
        ) : (
          h.spec
        )}
      </dd>
    </dl>
  );
}
