/**
 * What the server offers before anyone signs in (`GET /api/public/info`): the sign-in and
 * signup methods, guest access, room policy. Loaded once per page load and shared, because
 * several views decide what to show from it and it changes only when an operator edits settings.
 */
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, call } from '../api/client.js';
import type { Schemas } from '../api/types.js';

export type PublicInfo = Schemas['PublicInfo'];

/** undefined until the first answer; then the server's info. */
export const publicInfo = signal<PublicInfo | undefined>(undefined);
/** The error of the last failed load, for views to show with a way to try again. */
export const publicInfoError = signal<unknown>(null);

let loading: Promise<PublicInfo> | null = null;

/** The info, loaded on first use; a failed load is tried again on the next call. */
export function loadPublicInfo(): Promise<PublicInfo> {
  loading ??= call(api.GET('/api/public/info')).then(
    (info) => {
      publicInfo.value = info;
      publicInfoError.value = null;
      return info;
    },
    (error: unknown) => {
      loading = null;
      publicInfoError.value = error;
      throw error;
    },
  );
  return loading;
}

/** For views: starts the load on first render and re-renders when it lands. */
export function usePublicInfo(): { info: PublicInfo | undefined; error: unknown; retry: () => void } {
  useEffect(() => {
    if (!publicInfo.value) loadPublicInfo().catch(() => undefined); // the error is in publicInfoError
  }, []);
  return { info: publicInfo.value, error: publicInfoError.value, retry: () => void loadPublicInfo().catch(() => undefined) };
}
