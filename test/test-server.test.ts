/**
 * `npm test`'s preview server (issue 22, item 8): a taken port moves it to a free one (scripts/free-port.mjs), and the
 * server started for Playwright (scripts/preview-server.mjs) ends when its parent's end of standard input closes, as it
 * does when an interrupted or killed Playwright goes, so no preview is left holding the port.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort as free, tryPort as probe } from "../scripts/free-port.mjs";
const site = mkdtempSync(join(tmpdir(), "iggy-preview-"));
writeFileSync(join(site, "index.html"), "<!doctype html><title>preview test</title>");
afterAll(() => rmSync(site, { recursive: true, force: true }));

/** Holds a listening server on a port the system picks; resolves to it and its port. */
function holdPort(): Promise<{ server: net.Server; port: number }> {
  return new Promise((done) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => done({ server, port: (server.address() as net.AddressInfo).port }));
  });
}

/** Polls `ready` every 50 ms until it holds (a condition, not a time: the deadline only bounds a broken run). */
async function until(ready: () => Promise<boolean>, what: string, deadlineMs = 30_000): Promise<void> {
  const stop = Date.now() + deadlineMs;
  while (!(await ready())) {
    if (Date.now() > stop) throw new Error(`never: ${what}`);
    await new Promise((go) => setTimeout(go, 50));
  }
}

describe("the e2e server's port", () => {
  it("is the preferred one when it is free", async () => {
    const { server, port } = await holdPort();
    await new Promise((done) => server.close(done));
    expect(await free(port)).toBe(port);
  });

  it("is another free port when the preferred one is taken (a preview left running, the user's own)", async () => {
    const { server, port } = await holdPort();
    try {
      const other = await free(port);
      expect(other).not.toBe(port);
      expect(await probe(other)).toBe(other);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe("the preview server started for Playwright", () => {
  it("ends, freeing its port, when its parent's end of standard input closes", async () => {
    const port = await free(0);
    const child = spawn(process.execPath, ["scripts/preview-server.mjs", String(port), "--no-build", "--", "--outDir", site], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    const exited = new Promise<number | null>((done) => child.on("exit", done));
    try {
      await until(async () => (await probe(port)) === null, `a server listening on ${port}`);
      child.stdin.end();
      expect(await exited).toBe(0);
      await until(async () => (await probe(port)) === port, `port ${port} free again`);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("ends on SIGTERM as on SIGINT, freeing its port", async () => {
    const port = await free(0);
    const child = spawn(process.execPath, ["scripts/preview-server.mjs", String(port), "--no-build", "--", "--outDir", site], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    const exited = new Promise<number | null>((done) => child.on("exit", done));
    try {
      await until(async () => (await probe(port)) === null, `a server listening on ${port}`);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      await until(async () => (await probe(port)) === port, `port ${port} free again`);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
