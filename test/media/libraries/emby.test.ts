/**
 * The Emby connector against the stand-in, which validates every request and answer against a
 * description built from Emby's REST reference (no Emby server runs here, and no package ships
 * Emby's OpenAPI document).
 */
import anyTest, { type TestFn } from 'ava';
import { embyConnector } from '../../../media/libraries/emby.js';
import { mediaBrowserCases, type Context } from './media-browser-cases.js';

const test = anyTest as TestFn<Context>;

mediaBrowserCases(test, 'emby', embyConnector);

test.serial('Emby gets the client in X-Emby-Authorization and the token in X-Emby-Token', (t) => {
  const browsing = t.context.standin.requests().filter((request) => request.url.startsWith('/Users/') && request.url.includes('/Items'));
  t.true(browsing.length > 0);
  for (const request of browsing) {
    t.regex(String(request.headers['x-emby-authorization']), /^Emby Client="svc", Device="[^"]+", DeviceId="[0-9a-f]{32}", Version="[^"]+"$/);
    t.truthy(request.headers['x-emby-token']);
    t.is(request.headers.authorization, undefined);
  }
});
