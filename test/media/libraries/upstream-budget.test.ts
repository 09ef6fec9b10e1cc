/**
 * Library calls are rate-limited by the upstream requests they make, not by the calls: a search
 * of a WebDAV library walks up to 50 folders for one room read. Against Debian's nginx WebDAV
 * with a library of many folders, one member's searches spend their budget (the refusal comes
 * mid-walk, `rate_limited` with Retry-After), their next browse is refused too, and another
 * member browsing the same library is not held back.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import test from 'ava';
import { LIBRARY_UPSTREAM_BUDGET } from '../../../media/libraries/upstream-budget.js';
import { WEBDAV_SEARCH_FOLDERS_MAX } from '../../../media/libraries/webdav.js';
import type { Nginx } from '../../fixtures/nginx.js';
import { startWebDav } from '../../fixtures/webdav.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { createRoom, join, startMediaBed } from '../media-bed.js';
import { connectRoomLibrary, listFolder, searchLibrary, type LibraryView } from './library-bed.js';

const USER = 'budget';
const PASSWORD = 'dav-pass-budget-0c3e';
/** More folders than one search walks, so every search costs the walk's whole cap. */
const FOLDERS = WEBDAV_SEARCH_FOLDERS_MAX + 10;

let bed: GatewayBed;
let dav: Nginx;
let owner: Member;
let searcher: Member;
let neighbour: Member;
let roomId: string;
let library: LibraryView;

test.before(async () => {
  const root = await mkdtemp(joinPath(tmpdir(), 'svc-budget-'));
  for (let i = 0; i < FOLDERS; i++) {
    await mkdir(joinPath(root, `Folder ${String(i).padStart(3, '0')}`));
    await writeFile(joinPath(root, `Folder ${String(i).padStart(3, '0')}`, 'clip.mp4'), 'x');
  }
  dav = await startWebDav({ root, username: USER, password: PASSWORD });
  bed = await startMediaBed('media-libraries-budget');
  [owner, searcher, neighbour] = await Promise.all([bed.signUp('owner'), bed.signUp('searcher'), bed.signUp('neighbour')]);
  roomId = await createRoom(bed, owner);
  await join(bed, roomId, searcher);
  await join(bed, roomId, neighbour);
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Many folders', url: `${dav.url}/`, username: USER, secret: PASSWORD });
  if (connected.status !== 201) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);
  library = connected.body.library;
});
test.after.always(async () => {
  await bed?.close();
  await dav?.stop();
});

test('searches spend the member\'s upstream budget (refused mid-walk with rate_limited and Retry-After), then browsing is refused too; another member is not held back', async (t) => {
  // Each search walks WEBDAV_SEARCH_FOLDERS_MAX folders: the budget lasts this many, and no more.
  const affordable = Math.floor(LIBRARY_UPSTREAM_BUDGET.perCaller.points / WEBDAV_SEARCH_FOLDERS_MAX);
  await dav.clearRequests();
  let refused: Awaited<ReturnType<typeof searchLibrary>> | undefined;
  let searches = 0;
  while (!refused && searches <= affordable + 1) {
    const found = await searchLibrary(bed, roomId, library.id, searcher, 'clip');
    searches += 1;
    if (found.status !== 200) refused = found;
    else t.true(found.body.truncated, 'a search stops at its folder cap');
  }
  t.truthy(refused, `a search was refused within ${affordable + 1} searches`);
  t.is(refused!.status, 429, JSON.stringify(refused!.body));
  t.is(refused!.body.code, 'rate_limited');
  t.regex(refused!.body.message ?? '', /library/);
  const retryAfter = Number(refused!.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= LIBRARY_UPSTREAM_BUDGET.perCaller.durationSeconds, `Retry-After ${retryAfter}`);
  t.is(searches, affordable + 1, 'the refusal came once the budget was spent, in the walk that overran it');
  const propfinds = (await dav.requests()).filter((request) => request.method === 'PROPFIND').length;
  t.is(propfinds, LIBRARY_UPSTREAM_BUDGET.perCaller.points, 'the library server got exactly the budget, and the refused walk stopped there');

  const browse = await listFolder(bed, roomId, library.id, searcher);
  t.is(browse.status, 429);
  t.is(browse.body.code, 'rate_limited');
  t.truthy(browse.headers.get('retry-after'));

  const other = await listFolder(bed, roomId, library.id, neighbour);
  t.is(other.status, 200, 'another member browses on');
  t.is(other.body.entries.length, FOLDERS);
});
