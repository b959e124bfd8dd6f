/** Saving and copying from the page: a download through a blob: URL, the clipboard with a visible fallback. */
import { createSHA256 } from "hash-wasm";
import { bytesToHex } from "../../format/values.ts";

/** Offers bytes, text, or pieces of either (large JSON, an edited input's runs) as a file download. */
export function downloadFile(name: string, data: Uint8Array | string | readonly (string | Uint8Array)[], type = "application/octet-stream"): void {
  const parts = (typeof data === "string" || data instanceof Uint8Array ? [data] : [...data]) as BlobPart[];
  const blob = new Blob(parts, { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Copies text; resolves false when the clipboard is not available (the caller then shows the text). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Inputs up to this size are hashed by Web Crypto in one call; larger ones a slice at a time. */
export const ONE_CALL_SHA256_BYTES = 8 << 20;
/** Bytes hashed per main-thread task for a large input. */
export const SHA256_SLICE_BYTES = 2 << 20;

/** Lowercase hex SHA-256 of bytes (local, nothing leaves the page). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  if (bytes.length > ONE_CALL_SHA256_BYTES) return slicedSha256Hex(bytes);
  // Web Crypto copies its input (by spec) in the calling task: fine for a small input.
  const digest = await crypto.subtle.digest("SHA-256", bytes.slice());
  return bytesToHex(new Uint8Array(digest));
}

// Web Crypto has no incremental digest, and its one call copied a 256 MiB input in one 256 ms main-thread task
// (the renderer grew by 1 × the file meanwhile, measured by bench:page): a large input is fed to hash-wasm's SHA-256
// a slice at a time, each in its own task, with no copy of the input.
async function slicedSha256Hex(bytes: Uint8Array): Promise<string> {
  const hasher = await createSHA256();
  for (let at = 0; at < bytes.length; at += SHA256_SLICE_BYTES) {
    hasher.update(bytes.subarray(at, Math.min(bytes.length, at + SHA256_SLICE_BYTES)));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return hasher.digest("hex");
}

/** A file name safe to save under, from an input name. */
export function baseName(name: string): string {
  return (
    name
      .replace(/^sample: /, "sample-")
      .replace(/[^\w.-]+/g, "_")
      .replace(/\.bin$/i, "") || "input"
  );
}
