/** Saving and copying from the page: a download through a blob: URL, the clipboard with a visible fallback. */
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

/** Lowercase hex SHA-256 of bytes, with Web Crypto (local, nothing leaves the page). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // A view over a plain ArrayBuffer is hashed in place: copying a 256 MiB input only to hash it doubled the memory.
  const data = bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
  const digest = await crypto.subtle.digest("SHA-256", data);
  return bytesToHex(new Uint8Array(digest));
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
