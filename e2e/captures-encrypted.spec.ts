/**
 * Iggy traffic a capture cannot read (captures.md "Which connections are Iggy"): a TLS session on the
 * server's port and UDP to the QUIC port, made with openssl and a socket (test/fixtures/captures/README.md).
 * The page says what the CLI says: the connection is TLS, no message is cut from it, QUIC is counted.
 */
import path from "node:path";
import { ROOT, diagnosticsList, expect, openFile, openPage, runCliJson, test } from "./fixtures.ts";

const FILE = path.join(ROOT, "test", "fixtures", "captures", "tls-8090.pcap");

interface CliCapture {
  capture: { quicPackets: number; connections: { index: number; encryption: string | null; messages: unknown[] }[] };
  diagnostics: { code: string; connection: number | null }[];
}

test("a TLS session on Iggy's port is said to be encrypted, with no message rows; QUIC datagrams are counted", async ({ page }) => {
  const cli = runCliJson<CliCapture>(FILE, ["--no-frames"]);
  await openPage(page);
  await openFile(page, FILE);
  const connections = page.getByRole("list", { name: "Connections" });
  for (const conn of cli.capture.connections) {
    const item = connections.locator(`[data-connection="${conn.index}"]`);
    await expect(item).toContainText(conn.encryption === "tls" ? "TLS: encrypted, no message can be read" : "message");
  }
  await expect(connections).toContainText(`${cli.capture.quicPackets} QUIC packets (UDP port 8080: encrypted, counted only)`);
  const grid = page.getByRole("grid", { name: "Messages", exact: true });
  await expect(grid.locator("[data-message]")).toHaveCount(cli.capture.connections.reduce((n, c) => n + c.messages.length, 0));
  for (const d of cli.diagnostics) await expect(diagnosticsList(page).locator(`[data-code="${d.code}"]`)).toHaveCount(1);
  expect(cli.diagnostics.map((d) => d.code)).toEqual(["connection-encrypted"]);
});
