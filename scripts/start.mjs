// `npm start`: install deps if needed, then run the Vite dev server in the
// foreground (127.0.0.1, port 5173 or the next free one; no browser is opened).

import { ensureDeps, ROOT } from './ensure-deps.mjs';

if (!ensureDeps({ quiet: true })) {
  process.exit(1);
}

// Imported only after ensureDeps(): vite may not have been installed before.
const { createServer } = await import('vite');

const server = await createServer({
  root: ROOT,
  configFile: `${ROOT}/vite.config.ts`,
  server: { open: false },
});
await server.listen();
server.printUrls();

const url = server.resolvedUrls?.local[0];
if (url) console.log(`\nIggy Batch Explorer is running at ${url}  (Ctrl+C to stop)\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (closing) process.exit(1);
    closing = true;
    server.close().finally(() => process.exit(0));
  });
}
