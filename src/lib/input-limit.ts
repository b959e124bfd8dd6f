/** How large an input the page can open, and what it says about one that is larger. */

/** Most bytes the page opens: browsers cannot read a file of 2 GiB or more into one buffer. */
export const MAX_PAGE_INPUT_BYTES = 2 ** 31 - 1;

const GiB = 2 ** 30;

/** The message for an input too large for the page, or null when it fits. */
export function pageInputRefusal(name: string, size: number, limit = MAX_PAGE_INPUT_BYTES): string | null {
  if (size <= limit) return null;
  const shown = size >= GiB ? `${(size / GiB).toFixed(2)} GiB` : `${size.toLocaleString("en-US")} bytes`;
  return (
    `${name} is too large for the page: it is ${shown} (${size.toLocaleString("en-US")} bytes), and the page opens inputs of at most ` +
    `${limit.toLocaleString("en-US")} bytes (just under 2 GiB). Split it, or inspect it with the command line: npx iggy-batch inspect FILE`
  );
}
