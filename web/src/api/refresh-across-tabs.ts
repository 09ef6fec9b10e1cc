/**
 * One token refresh at a time across the tabs of this browser. The tabs share the refresh
 * cookie and the server rotates it on every refresh, so tabs whose access tokens expire together
 * would present one refresh token several times at once (the server forgives that for a few
 * seconds only, docs/2026-11-26-sign-in-hardening.md). Under a Web Lock (`navigator.locks`) one
 * tab refreshes and shares the answer on a BroadcastChannel; a tab that waited for the lock and
 * heard an answer meanwhile takes it instead of refreshing again. A tab that got the lock before
 * the answer reached it refreshes itself, with the cookie the first tab's refresh left: in turn,
 * never at once.
 *
 * Written against the two interfaces below, not the DOM's, so the logic runs under test in Node.
 */

/** The part of the Web Locks API used here. */
export interface TabLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The part of BroadcastChannel used here. */
export interface TabChannel<T> {
  postMessage(message: T): void;
  addEventListener(type: 'message', listener: (event: { data: T }) => void): void;
}

export interface AcrossTabs<T> {
  /** Runs `refresh` under the lock, unless another tab answered while this one waited for it. */
  run(refresh: () => Promise<T | null>): Promise<T | null>;
}

export function acrossTabs<T>(name: string, locks: TabLocks | undefined, channel: TabChannel<T> | undefined): AcrossTabs<T> {
  // Browsers without Web Locks (or outside a secure context) refresh on their own, as before.
  if (!locks) return { run: (refresh) => refresh() };
  // Answers heard from other tabs, counted so a waiter can tell one that came after it asked.
  let heard = 0;
  let latest: T | undefined;
  channel?.addEventListener('message', (event) => {
    heard += 1;
    latest = event.data;
  });
  return {
    run(refresh) {
      const asked = heard;
      return locks.request(name, async () => {
        if (heard !== asked && latest !== undefined) return latest;
        const answer = await refresh();
        if (answer !== null) channel?.postMessage(answer);
        return answer;
      });
    },
  };
}

/** The browser's own lock manager and channel, where it has them. */
export function browserAcrossTabs<T>(name: string): AcrossTabs<T> {
  // Typed by hand (through unknown): this module compiles without the DOM library too.
  const scope = globalThis as unknown as { navigator?: { locks?: TabLocks }; BroadcastChannel?: new (name: string) => TabChannel<T> };
  const channel = scope.BroadcastChannel ? new scope.BroadcastChannel(name) : undefined;
  return acrossTabs(name, scope.navigator?.locks, channel);
}
