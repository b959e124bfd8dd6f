/** `iggy-batch explain CODE`: the help of a stable diagnostic code (format/diagnostic-help.ts), or of every code. */
import { DIAGNOSTIC_CODES } from "../src/format/diagnostics.ts";
import { helpLines, isDiagnosticCode } from "../src/format/diagnostic-help.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import { CliProblem } from "./containers.ts";

/** The help text of one code, or of every code for "all"; an unknown code is a usage problem naming the known ones. */
export function explainText(code: string): string {
  if (code === "all") return DIAGNOSTIC_CODES.map((c) => helpLines(c).join("\n")).join("\n\n") + "\n";
  if (!isDiagnosticCode(code))
    throw new CliProblem(`iggy-batch: no diagnostic code ${JSON.stringify(visibleText(code))}; the codes are: ${DIAGNOSTIC_CODES.join(", ")} (or all)`);
  return helpLines(code).join("\n") + "\n";
}
