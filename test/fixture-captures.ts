/** Every capture file of the test fixtures (our own and the public corpus copy), read whole, for tests that go through them all. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The `.pcap` and `.pcapng` files of test/fixtures/captures and test/fixtures/corpus-captures, by name. */
export const FIXTURE_CAPTURES: readonly { readonly name: string; readonly bytes: Uint8Array }[] = [
  "test/fixtures/captures",
  "test/fixtures/corpus-captures",
].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /\.pcap(ng)?$/.test(f))
    .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(ROOT, dir, f))) })),
);
