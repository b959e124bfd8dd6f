// Entry of a range worker thread: tsx's loader is registered per thread, so the TypeScript worker loads here.
import { register } from "tsx/esm/api";

register();
await import("./range-worker.ts");
