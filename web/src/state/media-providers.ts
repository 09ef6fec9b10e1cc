/**
 * The media providers of this server and its proxy switches (`GET /api/media/providers`), for
 * the add-media form. Loaded once per page load and shared; a failed load is tried again.
 */
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, call } from '../api/client.js';
import type { Schemas } from '../api/types.js';

export type MediaProviders = Schemas['MediaProviders'];

export const mediaProviders = signal<MediaProviders | undefined>(undefined);
let loading: Promise<MediaProviders> | null = null;

export function loadMediaProviders(): Promise<MediaProviders> {
  loading ??= call(api.GET('/api/media/providers')).then(
    (answer) => {
      mediaProviders.value = answer;
      return answer;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export function useMediaProviders(): MediaProviders | undefined {
  useEffect(() => {
    if (!mediaProviders.value) loadMediaProviders().catch(() => undefined); // the form falls back to a plain URL
  }, []);
  return mediaProviders.value;
}
