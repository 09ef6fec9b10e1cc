/**
 * The connector-level tests Jellyfin and Emby share, run by jellyfin.test.ts and emby.test.ts
 * against the stand-in (test/fixtures/media-browser-standin.ts), which checks each request
 * against the server's API description. All network goes through a real UpstreamClient whose
 * address policy allows loopback only because the stand-in lives there.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { searchAnswer } from '../../../media/libraries/search.js';
import type { TestFn } from 'ava';
import { isAppError } from '../../../errors/app-error.js';
import type { LibraryAccess, LibraryConnector } from '../../../media/libraries/connector.js';
import { readLimited } from '../../../media/proxy/read-body.js';
import { AddressPolicy } from '../../../media/proxy/address-policy.js';
import { UpstreamClient } from '../../../media/proxy/upstream-client.js';
import { EMBEDDED_CUE, EXTERNAL_CUE, MOVIE_SECONDS, STANDIN_USER, startMediaBrowserStandin, type Flavour, type MediaBrowserStandin } from '../../fixtures/media-browser-standin.js';

export interface Context {
  standin: MediaBrowserStandin;
  http: UpstreamClient;
  connector: LibraryConnector;
  access: LibraryAccess;
}

const signal = (): AbortSignal => AbortSignal.timeout(10_000);

export function mediaBrowserCases(test: TestFn<Context>, flavour: Flavour, makeConnector: (http: UpstreamClient) => LibraryConnector): void {
  test.before(async (t) => {
    const standin = await startMediaBrowserStandin(flavour);
    const http = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 5000, idleTimeoutMs: 5000, maxRedirects: 3 });
    t.context = { standin, http, connector: makeConnector(http), access: { url: standin.url, username: STANDIN_USER.name, secret: STANDIN_USER.password } };
  });
  test.after.always(async (t) => {
    t.context.http?.close();
    await t.context.standin?.close();
  });
  // Last (ava runs serial tests in order, and every test here is serial): nothing any test sent broke the description.
  test.serial.after('no request or answer broke the API description', (t) => {
    t.deepEqual(t.context.standin.violations(), []);
  });

  test.serial('check() refuses a bad address, credentials in the address and a missing secret', (t) => {
    const { connector } = t.context;
    t.deepEqual(connector.check({ url: 'https://media.example.org:8096', username: 'alice', secret: 'pw' }), []);
    t.deepEqual(connector.check({ url: 'https://media.example.org/jellyfin/', username: '', secret: 'key' }), []);
    t.deepEqual(connector.check({ url: 'ftp://media.example.org', username: 'alice', secret: 'pw' }).map((issue) => issue.key), ['url']);
    t.deepEqual(connector.check({ url: 'not a url', username: 'alice', secret: 'pw' }).map((issue) => issue.key), ['url']);
    t.deepEqual(connector.check({ url: 'https://alice:pw@media.example.org', username: 'alice', secret: 'pw' }).map((issue) => issue.key), ['url']);
    t.deepEqual(connector.check({ url: 'https://media.example.org', username: 'alice', secret: '' }).map((issue) => issue.key), ['secret']);
  });

  test.serial('the root lists the user\'s libraries', async (t) => {
    const { connector, access, standin } = t.context;
    const root = await connector.list(access, null, { signal: signal() });
    t.deepEqual(root.entries, [
      { id: standin.ids.movies, name: 'Movies', kind: 'folder' },
      { id: standin.ids.shows, name: 'Shows', kind: 'folder' },
    ]);
    t.false(root.truncated);
  });

  test.serial('a library lists its films with their duration and size, a show library its series', async (t) => {
    const { connector, access, standin } = t.context;
    const movies = await connector.list(access, standin.ids.movies, { signal: signal() });
    t.deepEqual(movies.folder, { id: standin.ids.movies, name: 'Movies' });
    t.deepEqual(movies.entries, [{ id: standin.ids.movie, name: 'Test Pattern', kind: 'video', duration: MOVIE_SECONDS, size: standin.movieBytes.length }]);
    const shows = await connector.list(access, standin.ids.shows, { signal: signal() });
    t.deepEqual(shows.entries, [{ id: standin.ids.series, name: 'The Test Show', kind: 'folder' }]);
  });

  test.serial('a series lists its seasons and a season its episodes, in index order', async (t) => {
    const { connector, access, standin } = t.context;
    const series = await connector.list(access, standin.ids.series, { signal: signal() });
    t.deepEqual(series.entries.map((entry) => entry.id), [standin.ids.season1, standin.ids.season2]);
    t.deepEqual(series.entries.map((entry) => entry.name), ['Season 1', 'Season 2']);
    const season = await connector.list(access, standin.ids.season1, { signal: signal() });
    t.deepEqual(season.entries.map((entry) => entry.id), standin.ids.season1Episodes);
    t.deepEqual(season.entries.map((entry) => entry.name), ['Zulu Beginning', 'Mike Middle', 'Alpha Ending']);
    t.true(season.entries.every((entry) => entry.kind === 'video'));
  });

  test.serial('search finds files and folders by name across libraries', async (t) => {
    const { connector, access, standin } = t.context;
    const found = searchAnswer(await connector.search(access, 'test', { signal: signal() }));
    t.deepEqual(found.entries.map((entry) => entry.id), [standin.ids.series, standin.ids.movie]);
    t.false(found.truncated);
    t.deepEqual(searchAnswer(await connector.search(access, '   ', { signal: signal() })).entries, []);
  });

  test.serial('file() answers the static stream with the auth header, and its bytes are the file\'s', async (t) => {
    const { connector, access, standin, http } = t.context;
    const file = await connector.file(access, standin.ids.movie, { signal: signal(), refresh: false });
    t.is(file.type, 'file');
    t.is(file.identity, `${flavour}:${standin.url}/${standin.ids.movie}`);
    t.true(file.url.startsWith(`${standin.url}/Videos/${standin.ids.movie}/stream?`));
    t.false(file.url.toLowerCase().includes('api_key'));
    t.false(file.url.toLowerCase().includes('token'));
    const reply = await http.request({ url: file.url, headers: file.headers, signal: signal() });
    t.is(reply.status, 200);
    t.true((await readLimited(reply, 10 * 1024 * 1024, 'movie')).equals(standin.movieBytes));
    const ranged = await http.request({ url: file.url, headers: { ...file.headers, range: 'bytes=100-199' }, signal: signal() });
    t.is(ranged.status, 206);
    t.true((await readLimited(ranged, 1000, 'range')).equals(standin.movieBytes.subarray(100, 200)));
    const again = await connector.file(access, standin.ids.movie, { signal: signal(), refresh: true });
    t.is(again.identity, file.identity);
  });

  test.serial('file() lists the text subtitle streams (embedded and external) as WebVTT, not the PGS one', async (t) => {
    const { connector, access, standin, http } = t.context;
    const file = await connector.file(access, standin.ids.movie, { signal: signal(), refresh: false });
    t.deepEqual(file.subtitles.map(({ name, language }) => ({ name, language })), [
      { name: 'English', language: 'eng' },
      { name: 'Français (SRT)', language: 'fre' },
    ]);
    const texts: string[] = [];
    for (const subtitle of file.subtitles) {
      t.true(subtitle.url.endsWith('.vtt'));
      const reply = await http.request({ url: subtitle.url, headers: subtitle.headers, signal: signal() });
      t.is(reply.status, 200);
      texts.push((await readLimited(reply, 10_000, 'subtitle')).toString('utf8'));
    }
    t.true(texts[0]!.startsWith('WEBVTT') && texts[0]!.includes(EMBEDDED_CUE));
    t.true(texts[1]!.includes(EXTERNAL_CUE));
  });

  test.serial('a folder is not a file', async (t) => {
    const { connector, access, standin } = t.context;
    const error = await t.throwsAsync(connector.file(access, standin.ids.series, { signal: signal(), refresh: false }));
    t.true(isAppError(error) && error.code === 'invalid_argument');
  });

  test.serial('an item id of another shape (a path, "..", a slash, a query) is refused naming the field, before any request', async (t) => {
    const { connector, access, standin } = t.context;
    await connector.list(access, null, { signal: signal() });
    const before = standin.requests().length;
    for (const id of ['', '..', '.', 'a/b', '../Users', '%2e%2e', 'a%2Fb', 'a?b=1', 'a b', 'a\\b', 'x'.repeat(65)]) {
      const listed = await t.throwsAsync(connector.list(access, id, { signal: signal() }));
      t.true(isAppError(listed) && listed.code === 'invalid_argument' && listed.issues[0]?.key === 'folder', `list ${JSON.stringify(id)}: ${String(listed)}`);
      const file = await t.throwsAsync(connector.file(access, id, { signal: signal(), refresh: false }));
      t.true(isAppError(file) && file.code === 'invalid_argument' && file.issues[0]?.key === 'entryId', `file ${JSON.stringify(id)}: ${String(file)}`);
    }
    t.is(standin.requests().length, before, 'nothing was asked of the server');
  });

  test.serial('a stream redirected to another origin gets none of the connector\'s headers; a redirect on the server\'s own origin keeps them', async (t) => {
    const { connector, access, standin, http } = t.context;
    const file = await connector.file(access, standin.ids.movie, { signal: signal(), refresh: false });
    t.true(Object.keys(file.headers).length > 0);
    const seen: IncomingHttpHeaders[] = [];
    const other = createServer((request, response) => {
      seen.push(request.headers);
      response.end('elsewhere');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    t.teardown(() => other.close());
    standin.redirectNextStream(`http://127.0.0.1:${(other.address() as AddressInfo).port}/moved.mp4`);
    const away = await http.request({ url: file.url, headers: file.headers, signal: signal() });
    t.is(away.status, 200);
    away.body.resume();
    t.is(seen.length, 1, 'the other origin was asked once');
    for (const name of Object.keys(file.headers)) t.is(seen[0]![name.toLowerCase()], undefined, `${name} stays with the library's origin`);
    standin.redirectNextStream(file.url);
    const home = await http.request({ url: file.url, headers: file.headers, signal: signal() });
    t.is(home.status, 200, 'the redirect on the server\'s own origin carried the token');
    t.true((await readLimited(home, 10 * 1024 * 1024, 'movie')).equals(standin.movieBytes));
  });

  test.serial('the token is reused, and a refused token signs in again once', async (t) => {
    const { connector, access, standin } = t.context;
    const before = standin.signIns();
    await connector.list(access, null, { signal: signal() });
    t.is(standin.signIns(), before, 'a cached token is reused');
    standin.revokeTokens();
    const root = await connector.list(access, null, { signal: signal() });
    t.is(root.entries.length, 2);
    t.is(standin.signIns(), before + 1);
  });

  test.serial('a wrong password is refused naming the secret field, without the password in the message', async (t) => {
    const { connector, standin } = t.context;
    const wrong = { url: standin.url, username: STANDIN_USER.name, secret: 'not-the-password-42' };
    const error = await t.throwsAsync(connector.list(wrong, null, { signal: signal() }));
    t.true(isAppError(error));
    if (!isAppError(error)) return;
    t.is(error.code, 'invalid_argument');
    t.true(error.issues.some((issue) => issue.key === 'secret'));
    t.false(JSON.stringify(error.toJSON()).includes('not-the-password-42'));
  });

  test.serial('an API key browses as the server\'s administrator, and a wrong key names the secret', async (t) => {
    const { connector, standin } = t.context;
    const keyed = { url: standin.url, username: '', secret: standin.apiKey };
    const root = await connector.list(keyed, null, { signal: signal() });
    t.deepEqual(root.entries.map((entry) => entry.name), ['Movies', 'Shows']);
    const error = await t.throwsAsync(connector.list({ ...keyed, secret: 'wrong-key-0000' }, null, { signal: signal() }));
    t.true(isAppError(error) && error.code === 'invalid_argument' && error.issues[0]?.key === 'secret');
    t.false(JSON.stringify(isAppError(error) ? error.toJSON() : {}).includes('wrong-key-0000'));
  });

  test.serial('the token travels in a header, never in a URL', (t) => {
    const { standin } = t.context;
    const authenticated = standin.requests().filter((request) => !request.url.startsWith('/Users/AuthenticateByName'));
    t.true(authenticated.length > 0);
    for (const request of authenticated) {
      const header = flavour === 'jellyfin' ? request.headers.authorization : request.headers['x-emby-token'];
      t.truthy(header, `${request.method} ${request.url} carries the token header`);
    }
  });
}
