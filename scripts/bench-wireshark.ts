/**
 * `node bin/run-ts.mjs scripts/bench-wireshark.ts [--mib 100]`: writes a capture of about N MiB of
 * SendMessages requests (100 messages of 1 KiB a batch, 64 KiB segments) with their replies, then
 * times tshark over it (wall and CPU, /usr/bin/time) without the dissector, with it, with it but checksums
 * off, and with -V.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { wiresharkDissector } from "../src/core/wireshark/generate.ts";
import { pcapOf, type Sent } from "../test/pcap-writer.test-util.ts";
import { producerBatch, reply, sendRequest } from "../test/iggy-messages.test-util.ts";

const { values } = parseArgs({ options: { mib: { type: "string", default: "100" }, keep: { type: "boolean", default: false } } });
const target = Number(values.mib) * 1024 * 1024;
const xxh = await loadXxh3();
const batch = producerBatch(xxh, 100, 1024);
const messages: Sent[] = [];
let bytes = 0;
for (let n = 1n; bytes < target; n++) {
  const request = sendRequest(batch, 100, n);
  messages.push({ toServer: true, bytes: request }, { toServer: false, bytes: reply(160, new Uint8Array(0), 0, n) });
  bytes += request.length + 256;
}
const dir = mkdtempSync(join(tmpdir(), "iggy-ws-bench-"));
const capture = join(dir, "bench.pcap");
const lua = join(dir, "iggy.lua");
writeFileSync(capture, pcapOf(messages, { mss: 65483 }));
writeFileSync(lua, wiresharkDissector());
console.log(`capture: ${(statSync(capture).size / 2 ** 20).toFixed(1)} MiB, ${messages.length / 2} SendMessages of 100 x 1 KiB + replies`);

// Wall time alone misleads on a shared machine: /usr/bin/time gives the CPU time tshark itself used.
function time(label: string, args: string[]): void {
  const r = spawnSync("/usr/bin/time", ["-f", "TIME %e %U %S", "tshark", "-n", ...args, "-r", capture], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const m = /TIME (\S+) (\S+) (\S+)/.exec(r.stderr);
  const cpu = m ? (Number(m[2]) + Number(m[3])).toFixed(1) : "?";
  console.log(`${label.padEnd(40)} ${m ? m[1] : "?"} s wall, ${cpu} s CPU (user + sys)${r.status === 0 ? "" : ` (exit ${r.status}: ${r.stderr.slice(-200)})`}`);
}
time("tshark, no dissector", []);
time("tshark + iggy.lua", ["-X", `lua_script:${lua}`]);
time("tshark + iggy.lua, checksums off", ["-X", `lua_script:${lua}`, "-o", "iggy.verify:FALSE"]);
time("tshark + iggy.lua, -V to /dev/null", ["-X", `lua_script:${lua}`, "-V"]);
if (values.keep) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true });
