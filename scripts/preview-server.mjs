// The e2e suite's web server (playwright.config.ts): builds the site, then runs `vite preview` on PORT, and ends it
// when whoever started this goes. Playwright kills the server's process group when a run ends; when Playwright itself
// is killed or interrupted before it can, the standard input it holds closes, and this ends the preview then, so an
// interrupted `npm test` never leaves a server holding the port. SIGINT, SIGTERM and SIGHUP end it too.
//   node scripts/preview-server.mjs PORT [--no-build] [-- VITE_PREVIEW_ARGS…]   (tests serve another folder with `-- --outDir DIR`)
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
const port = process.argv[2];
const dash = process.argv.indexOf("--");
const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
if (!/^\d+$/.test(port ?? "")) {
  console.error("usage: node scripts/preview-server.mjs PORT [--no-build]");
  process.exit(2);
}
if (!process.argv.slice(2, dash < 0 ? undefined : dash).includes("--no-build")) {
  const built = spawnSync(process.execPath, [vite, "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// The server process itself (no shell between), so ending it ends what holds the port.
const server = spawn(process.execPath, [vite, "preview", "--host", "127.0.0.1", "--port", port, "--strictPort", ...extra], {
  cwd: ROOT,
  stdio: ["ignore", "inherit", "inherit"],
});
let ending = false;
const end = () => {
  if (ending) return;
  ending = true;
  server.kill("SIGTERM");
  // A server that ignores SIGTERM is killed after a second.
  setTimeout(() => server.kill("SIGKILL"), 1000).unref();
};
server.on("exit", (code, signal) => process.exit(ending ? 0 : (code ?? (signal ? 1 : 0))));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, end);
// The parent's end of standard input: closed when the parent is gone, however it went.
process.stdin.on("end", end);
process.stdin.on("close", end);
process.stdin.on("error", end);
process.stdin.resume();
