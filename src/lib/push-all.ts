/** Appends each part's items to `into` in order: the way to add a list of unknown length without spreading it into a call. */
export function pushAll<T>(into: T[], ...parts: readonly (readonly T[])[]): void {
  for (const part of parts) for (const item of part) into.push(item);
}
