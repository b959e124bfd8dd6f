// The layer rule as `npm run lint` runs it: the project's own eslint.config.js through ESLint's API on
// fixture strings placed at real paths, so a rule missing from the config, or scoped off a layer, fails here.
// Only the layer rule runs and without type information (the type-aware parse takes half a minute).
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({
  cwd: process.cwd(),
  ruleFilter: ({ ruleId }) => ruleId === "layers/import-direction",
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function layerMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the configured layer rule", () => {
  it.each([
    [
      "src/core/containers/detect.ts",
      'import { AnalysisClient } from "../../worker/client.ts";\nexport const x = AnalysisClient;\n',
      /core\/containers may not import worker/,
    ],
    ["src/core/walk/analyze.ts", 'import { fillKinds } from "../view/byte-map.ts";\nexport const x = fillKinds;\n', /core\/walk may not import core\/view/],
    ["src/format/fields.ts", 'import type { Analysis } from "../core/model/model.ts";\nexport type X = Analysis;\n', /format may not import core\/model/],
    ["src/ui/session/loading.ts", 'import { HexView } from "../hex/HexView.tsx";\nexport const x = HexView;\n', /session may not import feature "hex"/],
    ["cli/main.ts", 'import { documentStore } from "../src/ui/state/app-state.ts";\nexport const x = documentStore;\n', /cli may not import state/],
  ])("%s: an upward import fails", async (file, code, message) => {
    const got = await layerMessages(file, code);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(message);
  });

  it("a downward import passes", async () => {
    expect(
      await layerMessages("src/core/containers/detect.ts", 'import { ByteReader } from "../../format/reader.ts";\nexport const x = ByteReader;\n'),
    ).toEqual([]);
  });
});
