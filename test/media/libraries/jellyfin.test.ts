/**
 * The Jellyfin connector against the stand-in, which validates every request and answer
 * against Jellyfin's OpenAPI document as @jellyfin/sdk carries it (no Jellyfin server runs here).
 */
import anyTest, { type TestFn } from 'ava';
import { jellyfinConnector } from '../../../media/libraries/jellyfin.js';
import { mediaBrowserCases, type Context } from './media-browser-cases.js';

const test = anyTest as TestFn<Context>;

mediaBrowserCases(test, 'jellyfin', jellyfinConnector);

test.serial('Jellyfin gets the token in Authorization: MediaBrowser ..., Token="..."', (t) => {
  const signedIn = t.context.standin.requests().filter((request) => request.url.startsWith('/Items'));
  t.true(signedIn.length > 0);
  for (const request of signedIn) t.regex(request.headers.authorization ?? '', /^MediaBrowser Client="svc", Device="[^"]+", DeviceId="[0-9a-f]{32}", Version="[^"]+", Token="[^"]+"$/);
});
