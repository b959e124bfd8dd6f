/**
 * Keeps `--top-h` on the page root at the part of the header still on screen, so the sticky hex
 * panel fills the rest of the window: shorter under the whole header, full height once it has
 * scrolled away.
 */
import { useLayoutEffect, type RefObject } from "react";

/** Watches the header in ref (size and page scroll): its visible height as --top-h, its whole height as --top-full. */
export function useTopHeight(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let frame = 0;
    const set = () => {
      frame = 0;
      const r = el.getBoundingClientRect();
      document.documentElement.style.setProperty("--top-h", `${Math.max(0, Math.ceil(r.bottom))}px`);
      document.documentElement.style.setProperty("--top-full", `${Math.ceil(r.height)}px`);
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(set);
    };
    set();
    const observer = new ResizeObserver(later);
    observer.observe(el);
    window.addEventListener("scroll", later, { passive: true });
    return () => {
      observer.disconnect();
      window.removeEventListener("scroll", later);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref]);
}
