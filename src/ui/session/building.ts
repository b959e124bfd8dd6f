/** The builder's time and randomness (the page's clock and Web Crypto), and a hook for the XXH3 kernel; it keeps no state, so it has nothing to start. */
import { useEffect, useState } from "react";
import type { BuildEnvironment } from "../../core/edit/build-spec.ts";
import { loadXxh3, type Xxh3 } from "../../checksum/xxh3.ts";
import { kernel } from "./editing.ts";

/** Date.now and crypto.getRandomValues, as BuildEnvironment wants them. */
export const browserEnv: BuildEnvironment = {
  nowMillis: () => Date.now(),
  randomBytes: (n) => crypto.getRandomValues(new Uint8Array(n)),
};

/** Now in microseconds since the Unix epoch (the unit of every batch timestamp). */
export function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** The shared XXH3 kernel: at once when already loaded, else after it loads. */
export function useXxh3(): Xxh3 | null {
  const [xxh, setXxh] = useState<Xxh3 | null>(() => kernel());
  useEffect(() => {
    if (xxh) return;
    let live = true;
    void loadXxh3().then((k) => {
      if (live) setXxh(k);
    });
    return () => {
      live = false;
    };
  }, [xxh]);
  return xxh;
}
