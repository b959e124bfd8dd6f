/**
 * What a drop holds: its files, with a dropped folder walked (DataTransferItem.webkitGetAsEntry).
 * A folder's files keep only their base names: a partition directory is flat (containers.md), and
 * anything in a subfolder is not one of its files, so it is listed (by its path) and skipped.
 */

/** One dropped file with its name relative to the dropped folder. */
export interface DroppedFile {
  readonly name: string;
  readonly input: Blob;
}

/** What a drop opens: its files, and the folder's name when a folder was dropped. */
export interface Dropped {
  readonly files: DroppedFile[];
  readonly folder: string | null;
}

const fileOf = (entry: FileSystemFileEntry): Promise<File> => new Promise((resolve, reject) => entry.file(resolve, reject));

async function entriesOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  // readEntries hands out at most ~100 entries a call: call until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    for (const entry of batch) all.push(entry);
  }
}

async function walk(entry: FileSystemEntry, prefix: string, out: DroppedFile[]): Promise<void> {
  if (entry.isFile) {
    out.push({ name: prefix + entry.name, input: await fileOf(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  for (const child of await entriesOf(entry as FileSystemDirectoryEntry)) await walk(child, `${prefix}${entry.name}/`, out);
}

/** Reads a drop's files; one dropped folder opens as its files (subfolders' files keep their paths). */
export async function droppedFiles(data: DataTransfer): Promise<Dropped> {
  const entries = [...data.items].map((item) => (item.kind === "file" ? (item.webkitGetAsEntry?.() ?? null) : null));
  const folders = entries.filter((e): e is FileSystemDirectoryEntry => e?.isDirectory === true);
  if (folders.length === 1 && entries.length === 1) {
    const folder = folders[0]!;
    const files: DroppedFile[] = [];
    for (const child of await entriesOf(folder)) await walk(child, "", files);
    return { files, folder: folder.name };
  }
  if (folders.length === 0) return { files: [...data.files].map((f) => ({ name: f.name, input: f })), folder: null };
  const files: DroppedFile[] = [];
  for (const e of entries) if (e) await walk(e, "", files);
  return { files, folder: null };
}

/**
 * The files of a folder picked with the directory picker (`<input webkitdirectory>`), named as a dropped
 * folder's are: relative to the folder, so its own files keep their base names and a subfolder's keep their path.
 */
export function folderFiles(picked: readonly File[]): Dropped {
  let folder: string | null = null;
  const files = picked.map((f) => {
    const path = f.webkitRelativePath || f.name;
    const cut = path.indexOf("/");
    if (cut < 0) return { name: path, input: f };
    folder ??= path.slice(0, cut);
    return { name: path.slice(cut + 1), input: f };
  });
  return { files, folder };
}
