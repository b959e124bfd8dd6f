/** Keeps `--top-h` on the page root at the header's height, so the hex panel can fill the rest of the window. */
import { useLayoutEffect, type RefObject } from "react";

/** Watches the header in ref and publishes its height as the CSS custom property --top-h. */
export function useTopHeight(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const set = () => document.documentElement.style.setProperty("--top-h", `${Math.ceil(el.getBoundingClientRect().height)}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
}
