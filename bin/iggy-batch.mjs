#!/usr/bin/env node
// The iggy-batch command. Runs the precompiled dist-cli/iggy-batch.mjs (scripts/build-cli.mjs) while it
// is fresh: no file it was built from has changed since the build started. Otherwise, or without a
// build, it runs the TypeScript sources through tsx, so a stale build never runs old code.
import { readFileSync, statSync } from "node:fs";

const root = new URL("../", import.meta.url);

function freshBuild() {
  if (process.env.IGGY_BATCH_FROM_SOURCE === "1") return null;
  try {
    const { builtAt, files } = JSON.parse(readFileSync(new URL("dist-cli/inputs.json", root), "utf8"));
    // A stat per input (about thirty files) costs well under a millisecond.
    for (const file of files) if (statSync(new URL(file, root)).mtimeMs >= builtAt) return null;
    return new URL("dist-cli/iggy-batch.mjs", root);
  } catch {
    return null; // no build, or an input gone
  }
}

const built = freshBuild();
let main;
if (built) ({ main } = await import(built.href));
else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
