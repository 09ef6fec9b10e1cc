import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /**
   * Loads again and resolves once the new answer (or error) is in the state: what follows a
   * save shows together with the values it saved, not before them.
   */
  reloaded: () => Promise<void>;
}

/** Loads data for a view, again when `deps` change or `reload()` is called; stale answers are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true });
  const [round, setRound] = useState(0);
  const waiting = useRef<Array<() => void>>([]);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    const settled = (next: { data: T | undefined; error: unknown }): void => {
      if (!current) return;
      setState({ ...next, loading: false });
      for (const resolve of waiting.current.splice(0)) resolve();
    };
    load().then(
      (data) => settled({ data, error: null }),
      (error: unknown) => settled({ data: undefined, error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const reloaded = useCallback(
    () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        setRound((n) => n + 1);
      }),
    [],
  );
  return { ...state, reload, reloaded };
}
