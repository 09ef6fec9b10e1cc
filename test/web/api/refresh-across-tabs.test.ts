/**
 * The web client's cross-tab refresh (web/src/api/refresh-across-tabs.ts), with a lock manager
 * and a channel that behave as the browser's do between tabs: one lock holder at a time in
 * request order, and messages reaching every other tab. The server side of two tabs refreshing
 * at once is in test/accounts/password.test.ts.
 */
import test from 'ava';
import { acrossTabs, type TabChannel, type TabLocks } from '../../../web/src/api/refresh-across-tabs.js';

/** Web Locks of one browser: exclusive, granted in request order. */
function browserLocks(): TabLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const before = tails.get(name) ?? Promise.resolve();
      const held = before.then(callback, callback);
      tails.set(name, held.catch(() => undefined));
      return held;
    },
  };
}

/** A BroadcastChannel name shared by tabs: a message reaches every tab but the sender. */
function channelHub<T>(): () => TabChannel<T> {
  const tabs: Array<(data: T) => void> = [];
  return () => {
    const listeners: Array<(event: { data: T }) => void> = [];
    const deliver = (data: T) => listeners.forEach((listener) => listener({ data }));
    tabs.push(deliver);
    return {
      postMessage: (data) => tabs.filter((tab) => tab !== deliver).forEach((tab) => tab(data)),
      addEventListener: (_type, listener) => listeners.push(listener),
    };
  };
}

/** A refresh endpoint that counts exchanges and how many ran at once. */
function refreshServer() {
  let exchanges = 0;
  let running = 0;
  let mostAtOnce = 0;
  return {
    get exchanges() {
      return exchanges;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
    async refresh(): Promise<string> {
      exchanges += 1;
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return `token-${exchanges}`;
    },
  };
}

test('two tabs refreshing at once: one exchange, and the other tab takes its answer', async (t) => {
  const locks = browserLocks();
  const channel = channelHub<string>();
  const tabA = acrossTabs<string>('svc.refresh', locks, channel());
  const tabB = acrossTabs<string>('svc.refresh', locks, channel());
  const server = refreshServer();
  const answers = await Promise.all([tabA.run(() => server.refresh()), tabB.run(() => server.refresh())]);
  t.deepEqual(answers, ['token-1', 'token-1']);
  t.is(server.exchanges, 1);
});

test('a later refresh exchanges again: an answer heard before asking is not reused', async (t) => {
  const locks = browserLocks();
  const channel = channelHub<string>();
  const tabA = acrossTabs<string>('svc.refresh', locks, channel());
  const tabB = acrossTabs<string>('svc.refresh', locks, channel());
  const server = refreshServer();
  t.is(await tabA.run(() => server.refresh()), 'token-1');
  t.is(await tabB.run(() => server.refresh()), 'token-2');
  t.is(server.exchanges, 2);
});

test('without a channel, tabs still refresh one at a time, never at once', async (t) => {
  const locks = browserLocks();
  const tabs = Array.from({ length: 4 }, () => acrossTabs<string>('svc.refresh', locks, undefined));
  const server = refreshServer();
  await Promise.all(tabs.map((tab) => tab.run(() => server.refresh())));
  t.is(server.exchanges, 4);
  t.is(server.mostAtOnce, 1);
});

test('a refused refresh (null) is not shared: the next tab asks the server itself', async (t) => {
  const locks = browserLocks();
  const channel = channelHub<string>();
  const tabA = acrossTabs<string>('svc.refresh', locks, channel());
  const tabB = acrossTabs<string>('svc.refresh', locks, channel());
  let asked = 0;
  const refused = () => {
    asked += 1;
    return Promise.resolve(null);
  };
  t.deepEqual(await Promise.all([tabA.run(refused), tabB.run(refused)]), [null, null]);
  t.is(asked, 2);
});

test('a browser without Web Locks refreshes on its own', async (t) => {
  const tab = acrossTabs<string>('svc.refresh', undefined, undefined);
  t.is(await tab.run(() => Promise.resolve('direct')), 'direct');
});
