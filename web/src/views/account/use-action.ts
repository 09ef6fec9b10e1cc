import { useState } from 'preact/hooks';

/**
 * One button's request on the account page: busy while it runs, its error kept for the
 * section's notice. `run` resolves to whether the work succeeded.
 */
export function useAction(): { busy: boolean; error: unknown; setError: (error: unknown) => void; run: (work: () => Promise<void>) => Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run(work: () => Promise<void>): Promise<boolean> {
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
  return { busy, error, setError, run };
}
