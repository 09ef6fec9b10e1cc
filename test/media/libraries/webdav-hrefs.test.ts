/**
 * What a WebDAV listing hands out: only ids that later resolve inside the library. A server (or
 * whoever answers for it) may send any `href` in a multistatus; nginx never sends these, so a
 * small WebDAV peer answers PROPFIND with hostile ones, and the connector is called directly
 * through a real UpstreamClient.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { isAppError } from '../../../errors/app-error.js';
import type { LibraryConnector } from '../../../media/libraries/connector.js';
import { searchAnswer } from '../../../media/libraries/search.js';
import { WebDavConnector } from '../../../media/libraries/webdav.js';
import { AddressPolicy } from '../../../media/proxy/address-policy.js';
import { UpstreamClient } from '../../../media/proxy/upstream-client.js';

const HREFS = [
  '/dav/lib/',
  '/dav/lib/ok.mp4',
  '/dav/lib/Sub/',
  // Another origin with the library's path: not an entry of this library.
  '//evil.example/dav/lib/elsewhere.mp4',
  // Decodes to /../../secret.mp4: an id that would climb out.
  '/dav/lib/..%2F..%2Fsecret.mp4',
  '/dav/lib/a%5C..%5Cb.mp4',
  '/dav/lib/%2e%2e/x.mp4',
  '/dav/lib/line%0Abreak.mp4',
  '/dav/lib//double.mp4',
  '/dav/other/x.mp4',
];

function multistatus(hrefs: string[]): string {
  const response = (href: string): string => {
    const folder = href.endsWith('/');
    return `<D:response><D:href>${href}</D:href><D:propstat><D:prop><D:resourcetype>${folder ? '<D:collection/>' : ''}</D:resourcetype>${folder ? '' : '<D:getcontentlength>10</D:getcontentlength>'}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
  };
  return `<?xml version="1.0" encoding="utf-8"?><D:multistatus xmlns:D="DAV:">${hrefs.map(response).join('')}</D:multistatus>`;
}

let server: Server;
let url: string;
const asked: string[] = [];
let http: UpstreamClient;

test.before(async () => {
  server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    request.resume();
    response.statusCode = 207;
    response.setHeader('content-type', 'application/xml; charset=utf-8');
    response.end(multistatus(HREFS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dav/lib/`;
  http = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 5000, idleTimeoutMs: 5000, maxRedirects: 3 });
});
test.after.always(() => {
  http?.close();
  server?.close();
});

const options = () => ({ signal: AbortSignal.timeout(10_000) });

test('a listing hands out only ids inside the library: no other origin, no climbing, no backslash, control character or empty segment', async (t) => {
  const connector: LibraryConnector = new WebDavConnector(http);
  const listing = await connector.list({ url, username: 'u', secret: 'p' }, null, options());
  t.deepEqual(
    listing.entries.map((entry) => entry.id),
    ['/Sub/', '/ok.mp4'],
  );
  // And every id it handed out is one it takes back.
  for (const entry of listing.entries) {
    if (entry.kind === 'folder') await t.notThrowsAsync(connector.list({ url, username: 'u', secret: 'p' }, entry.id, options()));
    else await t.notThrowsAsync(connector.file({ url, username: 'u', secret: 'p' }, entry.id, { ...options(), refresh: false }));
  }
});

test('a search walks only folders the listing handed out', async (t) => {
  asked.length = 0;
  const connector: LibraryConnector = new WebDavConnector(http);
  const found = searchAnswer(await connector.search({ url, username: 'u', secret: 'p' }, 'mp4', options()));
  t.true(found.entries.every((entry) => !entry.id.includes('..') && !entry.id.includes('//')));
  t.true(asked.every((line) => line.startsWith('PROPFIND /dav/lib/')), asked.join('\n'));
});

test('ids a listing would never hand out are refused naming the field, before any request', async (t) => {
  asked.length = 0;
  const connector: LibraryConnector = new WebDavConnector(http);
  const access = { url, username: 'u', secret: 'p' };
  for (const folder of ['//x/', '///127.0.0.2/', '/a//', '/%2e%2e/', '/a/%2E./', '/a\\b/', '/a\u0000/', '/a\u007f/', 'relative/']) {
    const error = await t.throwsAsync(connector.list(access, folder, options()));
    t.true(isAppError(error) && error.code === 'invalid_argument' && error.issues[0]?.key === 'folder', `${JSON.stringify(folder)}: ${String(error)}`);
  }
  for (const entryId of ['//x/y.mp4', '/a/../b.mp4', '/a/%2e%2e/b.mp4', '/a/..%2fb.mp4', '/a\\..\\b.mp4', '/a//b.mp4', '/a/\u0085b.mp4']) {
    const error = await t.throwsAsync(connector.file(access, entryId, { ...options(), refresh: false }));
    t.true(isAppError(error) && error.code === 'invalid_argument' && error.issues[0]?.key === 'entryId', `${JSON.stringify(entryId)}: ${String(error)}`);
  }
  t.deepEqual(asked, []);
});
