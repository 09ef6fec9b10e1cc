/**
 * `local`: a file each viewer has on their own disk (docs/2026-11-26-local-files.md). The item's
 * url names the file by fingerprint, size and name (contracts/room/local-file.ts); nothing is
 * fetched, proxied or uploaded. The play endpoint answers no sources but the file to pick: each
 * browser asks its viewer for their copy, checks it against the fingerprint and plays it from a
 * blob URL under the room's sync. Seeking is the viewer's own file's: always possible.
 */
import { AppError, type FieldIssue } from '../../errors/index.js';
import type { MediaItem } from '../../contracts/room/model.js';
import { parseLocalFileUrl } from '../../contracts/room/local-file.js';
import type { MediaProvider, PlayInfo, Upstream } from '../provider.js';

export const localProvider: MediaProvider = {
  name: 'local',
  label: "A file on each viewer's disk",
  proxy: 'never',
  live: false,
  seeking: 'always',
  check({ url, headers }): FieldIssue[] {
    const issues: FieldIssue[] = [];
    const parsed = parseLocalFileUrl(url);
    if ('problem' in parsed) issues.push({ key: 'url', message: parsed.problem });
    // Nothing is requested for the item: headers would only mislead whoever reads it.
    for (const name of Object.keys(headers)) issues.push({ key: `headers.${name}`, message: 'must be absent: a local file is never fetched' });
    return issues;
  },
  resolve(item: MediaItem): Promise<Upstream> {
    return Promise.reject(new AppError('invalid_argument', `media ${item.id} is a file on each viewer's own disk: there is no upstream to fetch`));
  },
  play(item: MediaItem): Promise<PlayInfo> {
    const parsed = parseLocalFileUrl(item.url);
    // Checked when added; an item stored otherwise (edited before this provider existed) cannot be played.
    if ('problem' in parsed) return Promise.reject(new AppError('invalid_argument', `media ${item.id} is not a valid local file reference: url ${parsed.problem}`));
    return Promise.resolve({ sources: [], local: parsed.ref, subtitles: item.subtitles, live: false, proxied: false, expiresAt: null });
  },
};
