/**
 * The server's public facts (`GET /api/public/info`: sign-in methods, guests, room policy), read
 * once per page load and shared by every view that needs them.
 */
import { signal } from '@preact/signals';
import { api, call } from '../api/client.js';
import type { Schemas } from '../api/types.js';

export const publicInfo = signal<Schemas['PublicInfo'] | undefined>(undefined);

let loading: Promise<Schemas['PublicInfo']> | null = null;

/** The info, fetched on first use; a failed fetch is retried by the next caller. */
export function loadPublicInfo(): Promise<Schemas['PublicInfo']> {
  if (publicInfo.value) return Promise.resolve(publicInfo.value);
  loading ??= call(api.GET('/api/public/info')).then(
    (info) => {
      publicInfo.value = info;
      return info;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
