/** The search worker: a thin wire from messages to the search host. */
import { createSearchHost } from "./search-host.ts";
import type { FromSearchWorker, ToSearchWorker } from "./search-protocol.ts";

// Typed narrowly so this file compiles under the page's DOM lib as well as in a worker.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToSearchWorker>) => void) | null;
  postMessage(message: FromSearchWorker, transfer: Transferable[]): void;
};
const handle = createSearchHost((message, transfer) => scope.postMessage(message, transfer));
scope.onmessage = (event) => handle(event.data);
