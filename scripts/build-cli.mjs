// Builds the iggy-batch command once into dist-cli/iggy-batch.mjs (one ES module, dependencies
// bundled), so running it needs no TypeScript loader. bin/iggy-batch.mjs runs the build while
// it is fresh: dist-cli/inputs.json lists every source file that went into it, with the time the
// build started; a file changed since (or gone) makes bin/ fall back to tsx on the sources.
//
//   node scripts/build-cli.mjs              build (fails loudly); --out-dir DIR builds elsewhere (tests)
//   node scripts/build-cli.mjs --if-possible  as `prepare` on install: without Vite (a production
//                                            install) it says so and exits 0; bin/ then uses tsx
//
// Assets a module reads next to itself (`new URL("./kernel/x.wasm", import.meta.url)`) are emitted
// into dist-cli/assets/ and the URL rewritten to point there; src/checksum/kernel/*.wasm is also
// copied to dist-cli/kernel/ for code in src/checksum/ that joins the path by hand.

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = path.join(ROOT, "dist-cli");
const ENTRY = path.join(ROOT, "cli", "main.ts");
const KERNEL_DIR = path.join(ROOT, "src", "checksum", "kernel");
// Worker threads start from a file beside their pool (cli/range-pool.ts: new URL("./range-worker-boot.mjs",
// import.meta.url)), whose source version registers tsx. The bundle gets the worker as an entry of its
// own and a boot file of the same name that loads it, so its threads need no tsx either.
const WORKERS = [{ name: "range-worker", entry: path.join(ROOT, "cli", "range-worker.ts"), boot: "range-worker-boot.mjs" }];

const ASSET_URL_RE = /new URL\(\s*(["'])(\.{1,2}\/[^"'\n]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Vite leaves `new URL("./x.wasm", import.meta.url)` alone in an SSR build, where it would then point
 * next to the bundle: emit each such file as dist-cli/assets/NAME and point the URL there.
 */
function assetsBesideModules(inputs) {
  return {
    name: "iggy:cli-assets",
    transform(code, id) {
      if (!/\.[cm]?[jt]s$/.test(id) || !code.includes("import.meta.url")) return null;
      let changed = false;
      const out = code.replace(ASSET_URL_RE, (whole, _quote, relative) => {
        const file = path.resolve(path.dirname(id), relative);
        if (!existsSync(file) || /\.[cm]?[jt]sx?$/.test(file)) return whole;
        const fileName = `assets/${path.basename(file)}`;
        inputs.add(file);
        this.emitFile({ type: "asset", fileName, source: readFileSync(file) });
        changed = true;
        return `new URL(${JSON.stringify("./" + fileName)}, import.meta.url)`;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

/** Builds dist-cli/ (or outDir, for tests); resolves to the number of source files bundled. */
export async function buildCli({ outDir = OUT_DIR } = {}) {
  const startedAt = Date.now();
  const { build } = await import("vite");
  const workers = WORKERS.filter((w) => existsSync(w.entry));
  const inputs = new Set();
  await build({
    configFile: false,
    root: ROOT,
    logLevel: "warn",
    publicDir: false,
    plugins: [
      assetsBesideModules(inputs),
      {
        name: "iggy:cli-inputs",
        // Every module that went into the bundle, so bin/ can tell when one has changed.
        moduleParsed(info) {
          if (!info.id.startsWith("\0")) inputs.add(info.id.split("?")[0]);
        },
      },
    ],
    ssr: { noExternal: true, target: "node" },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      sourcemap: false,
      // A data: URL cannot be read with fs: emit every asset as a file.
      assetsInlineLimit: 0,
      ssrEmitAssets: true,
      copyPublicDir: false,
      rollupOptions: {
        input: { "iggy-batch": ENTRY, ...Object.fromEntries(workers.map((w) => [w.name, w.entry])) },
        output: { format: "es", entryFileNames: "[name].mjs", chunkFileNames: "[name]-[hash].mjs" },
      },
    },
  });
  if (existsSync(KERNEL_DIR)) {
    mkdirSync(path.join(outDir, "kernel"), { recursive: true });
    for (const name of readdirSync(KERNEL_DIR).filter((n) => n.endsWith(".wasm"))) {
      cpSync(path.join(KERNEL_DIR, name), path.join(outDir, "kernel", name));
      inputs.add(path.join(KERNEL_DIR, name));
    }
  }
  for (const w of workers)
    writeFileSync(path.join(outDir, w.boot), `// Entry of a ${w.name} thread in the bundle: no tsx.\nawait import("./${w.name}.mjs");\n`);
  const files = [...inputs]
    .filter((f) => existsSync(f))
    .map((f) => path.relative(ROOT, f))
    .sort();
  files.push("package.json", "scripts/build-cli.mjs");
  writeFileSync(path.join(outDir, "inputs.json"), JSON.stringify({ builtAt: startedAt, files }, null, 1) + "\n");
  return files.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifPossible = process.argv.includes("--if-possible");
  if (ifPossible && !existsSync(path.join(ROOT, "node_modules", "vite"))) {
    console.log("build-cli: Vite is not installed; iggy-batch will run from the TypeScript sources through tsx");
  } else {
    const at = process.argv.indexOf("--out-dir");
    const outDir = at > 0 ? path.resolve(process.argv[at + 1]) : OUT_DIR;
    const t0 = Date.now();
    const count = await buildCli({ outDir });
    console.log(`build-cli: ${path.relative(ROOT, outDir) || "."}/iggy-batch.mjs from ${count} files in ${Date.now() - t0} ms`);
  }
}
