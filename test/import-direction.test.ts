// The layer rule of eslint.config.js on real import lines, as ESLint runs it: each case names the file
// the import sits in; a downward import passes, an upward or sideways one is reported.
import path from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import layers from "../scripts/lint/import-direction.mjs";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" } });
const at = (file: string) => path.join(process.cwd(), file);
const ok = (file: string, code: string) => ({ filename: at(file), code });
const bad = (file: string, code: string, message: RegExp) => ({ filename: at(file), code, errors: [{ message }] });

tester.run("layers/import-direction", layers.rules["import-direction"], {
  valid: [
    ok("src/ui/app/App.tsx", 'import { HexView } from "../hex/HexView.tsx";'),
    ok("src/ui/hex/HexView.tsx", 'import { editByte } from "../session/editing.ts";'),
    ok("src/ui/hex/HexView.tsx", 'import { fieldAt } from "./field-at.ts";'),
    ok("src/ui/tables/FramesTable.tsx", 'import { TableToggle } from "../common/TableToggle.tsx";'),
    ok("src/ui/session/loading.ts", 'import { AnalysisClient } from "../../worker/client.ts";'),
    ok("src/ui/common/cell-text.ts", 'import { FrameFlag } from "../../core/model/model.ts";'),
    ok("src/core/walk/analyze.ts", 'import { ByteReader } from "../../format/reader.ts";'),
    ok("src/core/walk/analyze.ts", 'import { FRAME_COLUMNS } from "../model/frame-columns.ts";'),
    ok("src/core/report/render-svg.ts", 'import { fillKinds } from "../view/byte-map.ts";'),
    ok("src/core/samples/samples.ts", 'import { editBytes } from "../edit/edit.ts";'),
    ok("src/core/containers/capture/bodies.ts", 'import { pollReply } from "../poll-reply.ts";'),
    ok("src/checksum/verify.ts", 'import { FRAME_HEADER_SIZE } from "../format/fields.ts";'),
    ok("src/worker/run-request.ts", 'import { analyzeWith } from "../core/walk/analyze.ts";'),
    ok("cli/main.ts", 'import { analyzeWith } from "../src/core/walk/analyze.ts";'),
    ok("src/main.tsx", 'import { startSession } from "./ui/session/start.ts";'),
    ok("src/core/walk/analyze.test.ts", 'import { readFileSync } from "node:fs";'),
    ok("src/format/fields.test.ts", 'import { HexView } from "../ui/hex/HexView.tsx";'),
    ok("src/checksum/xxh3.ts", 'import { createXXHash64 } from "hash-wasm";'),
  ],
  invalid: [
    bad("src/ui/builder/BuilderDialog.tsx", 'import { loadInput } from "../app/load.ts";', /builder" may not import app/),
    bad("src/ui/inspector/FrameInspector.tsx", 'import { x } from "../tables/cell-text.ts";', /sibling feature "tables"/),
    bad("src/ui/diff/DiffDialog.tsx", 'import "../builder/builder.css";', /sibling feature "builder"/),
    bad("src/ui/session/editing.ts", 'import { EditPanel } from "../edit/EditPanel.tsx";', /session may not import feature "edit"/),
    bad("src/ui/common/cell-text.ts", 'import { loadInput } from "../session/loading.ts";', /common may not import session/),
    bad("src/ui/state/actions.ts", 'export { x } from "../hex/keys.ts";', /state may not import feature "hex"/),
    bad("src/worker/client.ts", 'import { documentStore } from "../ui/state/app-state.ts";', /worker may not import state/),
    bad("src/core/walk/analyze.ts", 'import { AnalysisClient } from "../../worker/client.ts";', /core\/walk may not import worker/),
    bad("src/core/deep/x.ts", 'const m = import("../../ui/hex/HexView.tsx");', /core may not import feature "hex"/),
    bad("src/core/model/model.ts", 'import { analyze } from "../walk/analyze.ts";', /core\/model may not import core\/walk/),
    bad("src/core/walk/range-walk.ts", 'import type { Opened } from "../containers/types.ts";', /core\/walk may not import core\/containers/),
    bad("src/core/containers/capture/json.ts", 'import { reportText } from "../../report/report-text.ts";', /core\/containers may not import core\/report/),
    bad("src/core/view/byte-map.ts", 'export { x } from "../report/markdown.ts";', /core\/view may not import core\/report/),
    bad("src/core/report/report.ts", 'import { redact } from "../edit/redact.ts";', /core\/report may not import core\/edit/),
    bad("src/core/edit/edit.ts", 'import { SAMPLES } from "../samples/samples.ts";', /core\/edit may not import core\/samples/),
    bad("src/core/walk/analyze.ts", 'import { x } from "../stray.ts";', /core\/walk may not import core/),
    bad("src/format/fields.ts", 'import { analyzeWith } from "../core/walk/analyze.ts";', /format may not import core\/walk/),
    bad("src/checksum/verify.ts", 'import type { Analysis } from "../core/model/model.ts";', /checksum may not import core\/model/),
    bad("src/format/reader.ts", 'import { readFileSync } from "node:fs";', /no Node built-in/),
    bad("src/core/report/report.ts", 'import path from "path";', /no Node built-in/),
    bad("src/lib/share-codec.ts", 'import { useState } from "react";', /no React/),
    bad("cli/main.ts", 'import { SAMPLES } from "../src/ui/hex/HexView.tsx";', /cli may not import feature "hex"/),
    bad("src/ui/hex/HexView.tsx", 'import { fixture } from "./fixtures.test-util.ts";', /imports the test file/),
  ],
});
