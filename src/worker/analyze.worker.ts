/** The analysis worker: a thin switch from messages to runRequest. */
import { runRequest } from "./run-request.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";

// Typed narrowly so this file compiles under the page's DOM lib as well as in a worker.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer: Transferable[]): void;
};
scope.onmessage = (event) => {
  void runRequest(event.data, (message, transfer) => scope.postMessage(message, transfer));
};
