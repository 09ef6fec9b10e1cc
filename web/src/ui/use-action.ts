import { useState } from 'preact/hooks';

export interface Action {
  busy: boolean;
  error: unknown;
  setError: (error: unknown) => void;
  clear: () => void;
  /** Runs `work` (one at a time per control), keeping its error for an ErrorNotice; resolves to whether it succeeded. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
}

/** One control's request: busy while it runs, its error kept for the notice beside it. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run(work: () => Promise<unknown>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, clear: () => setError(null), run };
}
