// An ESLint rule that keeps imports running downward through the layers (see docs/ARCHITECTURE.md):
//   entry → ui/app → ui features → ui/session → ui/state, ui/common → worker → core → format, checksum, lib
// and inside the core, folder by folder (CORE_FOLDERS below).
// cli/ sits beside the page and imports only the core and below. Relative imports are resolved to the
// file they name, so the check holds however deep the importing file sits. The portable layers
// (format, checksum, lib, core) run in the browser, a worker and Node alike: no Node built-in and no
// React there. Tests, e2e, scripts and configs are outside the layers and import freely.
import { builtinModules } from 'node:module';
import path from 'node:path';

const BOTTOM = ['format', 'checksum', 'lib', 'version'];
// The core's own layers, bottom to top: each folder of src/core imports only the folders before it.
// model: the analysis model, its columns and wire/JSON forms; walk: the walk, its checks and the encoder;
// containers: every container format (captures too) and the partition verdict; view: what the hex map, the
// diagram and search show; report: text, Markdown, SVG; edit: edits and redaction; samples: the samples menu;
// wireshark: the dissector generator. A file directly in src/core sits above them all.
const CORE_FOLDERS = ['model', 'walk', 'containers', 'view', 'report', 'edit', 'samples', 'wireshark'];
const CORE_LAYERS = CORE_FOLDERS.map((f) => `core/${f}`);
const CORE = ['core', ...CORE_LAYERS, ...BOTTOM];
const BELOW_SESSION = ['state', 'common', 'worker', ...CORE];

/** What each layer may import besides itself ("feature" means: its own feature folder only). */
const MAY_IMPORT = {
  version: [],
  format: BOTTOM,
  checksum: BOTTOM,
  lib: BOTTOM,
  core: CORE,
  ...Object.fromEntries(CORE_LAYERS.map((layer, i) => [layer, [...CORE_LAYERS.slice(0, i), ...BOTTOM]])),
  worker: ['worker', ...CORE],
  cli: ['cli', ...CORE],
  state: BELOW_SESSION,
  common: BELOW_SESSION,
  session: ['session', ...BELOW_SESSION],
  feature: ['session', ...BELOW_SESSION],
  app: ['app', 'feature', 'session', ...BELOW_SESSION],
  entry: ['entry', 'app', 'feature', 'session', ...BELOW_SESSION],
};

const PORTABLE = new Set(['format', 'checksum', 'lib', 'core', ...CORE_LAYERS, 'version']);
const UI_SHARED = new Set(['app', 'session', 'state', 'common']);
const NODE_BUILTINS = new Set(builtinModules);

const TEST_FILE = /\.test\.tsx?$|\.test-util\.tsx?$/;

/** The layer of a project-relative path (forward slashes), e.g. { layer: "feature", name: "hex" }, or null outside the layers. */
export function layerOf(rel) {
  if (TEST_FILE.test(rel)) return null;
  const parts = rel.split('/');
  if (parts[0] === 'cli') return { layer: 'cli', name: 'cli' };
  if (parts[0] !== 'src' || parts.length < 2) return null;
  if (parts.length === 2) {
    if (parts[1] === 'version.ts') return { layer: 'version', name: 'version' };
    return { layer: 'entry', name: 'entry' };
  }
  if (parts[1] === 'ui') {
    if (parts.length === 3) return { layer: 'entry', name: 'entry' };
    const folder = parts[2];
    return UI_SHARED.has(folder) ? { layer: folder, name: folder } : { layer: 'feature', name: folder };
  }
  if (parts[1] === 'core') {
    const layer = parts.length > 3 && CORE_FOLDERS.includes(parts[2]) ? `core/${parts[2]}` : 'core';
    return { layer, name: layer };
  }
  return MAY_IMPORT[parts[1]] ? { layer: parts[1], name: parts[1] } : null;
}

/** Why `from` may not import `to`, or null when it may. */
export function violation(from, to) {
  if (from.layer === 'feature' && to.layer === 'feature') {
    return from.name === to.name ? null : `feature "${from.name}" imports the sibling feature "${to.name}": move the shared piece to ui/common or ui/session`;
  }
  if (from.layer === to.layer) return null;
  if (MAY_IMPORT[from.layer].includes(to.layer)) return null;
  const what = (l) => (l.layer === 'feature' ? `feature "${l.name}"` : l.layer);
  return `${what(from)} may not import ${what(to)} (imports run downward: see docs/ARCHITECTURE.md)`;
}

function bareViolation(from, spec) {
  if (!PORTABLE.has(from.layer)) return null;
  const name = spec.startsWith('node:') ? spec : spec.split('/')[0];
  if (name.startsWith('node:') || NODE_BUILTINS.has(name)) return `${from.layer} is portable (browser, worker, Node): no Node built-in "${spec}"`;
  if (name === 'react' || name === 'react-dom') return `${from.layer} is portable: no React`;
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'imports run downward through the layers (app → features → session → state/common → worker → core (samples → edit → report → view → containers → walk → model) → format/checksum/lib)',
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const fileRel = path.relative(root, context.filename).split(path.sep).join('/');
    const from = layerOf(fileRel);
    if (!from) return {};
    const check = (node, source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      let message;
      if (spec.startsWith('.')) {
        const target = path
          .relative(root, path.resolve(path.dirname(context.filename), spec))
          .split(path.sep)
          .join('/');
        const to = layerOf(target);
        if (to) message = violation(from, to);
        else if (TEST_FILE.test(target)) message = `shipped code imports the test file "${spec}"`;
      } else {
        message = bareViolation(from, spec);
      }
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

/** The local plugin: `layers/import-direction`. */
export default { meta: { name: 'layers' }, rules: { 'import-direction': rule } };
