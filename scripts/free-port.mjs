// The e2e preview server's port: the preferred one when it is free on 127.0.0.1, else any free port, so a
// preview left running (or the user's own `npm run preview` on 4173) never stops `npm test`.
// `node scripts/free-port.mjs [PREFERRED]` prints it (scripts/test.mjs runs it so).
import net from "node:net";
import { pathToFileURL } from "node:url";

/** Resolves to `port` when it can be listened on at `host`, else null (port 0: the free port the system gives). */
export function tryPort(port, host = "127.0.0.1") {
  return new Promise((done) => {
    const server = net.createServer();
    server.once("error", () => done(null));
    server.listen(port, host, () => {
      const got = server.address().port;
      server.close(() => done(got));
    });
  });
}

/** The preferred port when it is free, else a free one. */
export async function freePort(preferred = 4173, host = "127.0.0.1") {
  return (await tryPort(preferred, host)) ?? (await tryPort(0, host));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await freePort(Number(process.argv[2] ?? 4173)));
}
