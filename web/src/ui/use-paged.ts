import { useEffect, useRef, useState } from 'preact/hooks';

export interface PageOf<T> {
  items: T[];
  /** The server's keyset cursor of the next page; absent on the last one. */
  nextCursor?: string | undefined;
}

export interface Paged<T> {
  /** Everything read so far; null until the first page arrives. */
  items: T[] | null;
  loading: boolean;
  error: unknown;
  hasMore: boolean;
  /** Appends the next page (ignored while a page is on its way). */
  loadMore: () => void;
}

/**
 * A list read a page at a time with the server's cursor: the first page again whenever `deps`
 * change (what was shown stays until it arrives), the next one appended on `loadMore()`.
 * Answers asked for under earlier `deps` are dropped, so a quick second search cannot be
 * overwritten by the first one's late answer.
 */
export function usePaged<T>(fetchPage: (cursor: string | undefined) => Promise<PageOf<T>>, deps: unknown[]): Paged<T> {
  const [state, setState] = useState<{ items: T[] | null; cursor: string | undefined; loading: boolean; error: unknown }>({
    items: null,
    cursor: undefined,
    loading: true,
    error: null,
  });
  const generation = useRef(0);

  const read = (cursor: string | undefined): void => {
    const asked = generation.current;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    fetchPage(cursor).then(
      (page) => {
        if (asked !== generation.current) return;
        setState((previous) => ({
          items: cursor !== undefined && previous.items ? [...previous.items, ...page.items] : page.items,
          cursor: page.nextCursor,
          loading: false,
          error: null,
        }));
      },
      (error: unknown) => {
        if (asked === generation.current) setState((previous) => ({ ...previous, loading: false, error }));
      },
    );
  };

  useEffect(() => {
    generation.current += 1;
    read(undefined);
  }, deps);

  return {
    items: state.items,
    loading: state.loading,
    error: state.error,
    hasMore: state.cursor !== undefined,
    loadMore: () => {
      if (!state.loading && state.cursor !== undefined) read(state.cursor);
    },
  };
}
