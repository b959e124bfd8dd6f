// `npm start`: install deps if needed, build the page (dist/) and the CLI (dist-cli/), then serve the
// production build with `vite preview` in the foreground (127.0.0.1, port 5173 or the next free one;
// no browser is opened). The page opens on a sample. The dev server is `npm run dev`.

import { ensureDeps, ROOT } from './ensure-deps.mjs';

if (!ensureDeps({ quiet: true })) {
  process.exit(1);
}

// Imported only after ensureDeps(): vite may not have been installed before.
const { build, preview } = await import('vite');
const { buildCli } = await import('./build-cli.mjs');

const configFile = `${ROOT}/vite.config.ts`;
await build({ root: ROOT, configFile, logLevel: 'warn' });
await buildCli();

const server = await preview({
  root: ROOT,
  configFile,
  preview: { host: '127.0.0.1', port: 5173, strictPort: false, open: false },
});
server.printUrls();

const url = server.resolvedUrls?.local[0];
if (url) console.log(`\nIggy Batch Explorer (production build) is running at ${url}  (Ctrl+C to stop)\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (closing) process.exit(1);
    closing = true;
    server.close().finally(() => process.exit(0));
  });
}
