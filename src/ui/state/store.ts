/**
 * A tiny observable store. Hot interaction state (hover, selection, cursor) lives here rather than
 * in React state, so a pointer move re-renders only the rows whose selected slice changed.
 */
import { useCallback, useSyncExternalStore } from "react";

/** A value with subscribers. */
// Function-typed members, not methods: they are handed around unbound (useSyncExternalStore(store.subscribe)).
export interface Store<T> {
  readonly get: () => T;
  readonly set: (next: T | ((prev: T) => T)) => void;
  readonly subscribe: (listener: () => void) => () => void;
}

/** Creates a store holding initial. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const v = typeof next === "function" ? (next as (prev: T) => T)(value) : next;
      if (Object.is(v, value)) return;
      value = v;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Subscribes a component to a slice of a store; it re-renders only when the slice changes (Object.is). */
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S {
  const getSnapshot = useCallback(() => select(store.get()), [store, select]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}
