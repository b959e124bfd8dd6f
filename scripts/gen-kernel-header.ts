// Writes src/checksum/kernel/layout.h from the field table and the kernel ABI (npm run kernel:header); a unit test fails when it is stale.
import { writeFileSync } from "node:fs";
import { renderKernelLayoutHeader } from "../src/checksum/kernel/layout-header.ts";

writeFileSync(new URL("../src/checksum/kernel/layout.h", import.meta.url), renderKernelLayoutHeader());
console.log("wrote src/checksum/kernel/layout.h");
