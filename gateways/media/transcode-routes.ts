/**
 * `GET /media/transcode/<grant>/master.m3u8`, `…/<rung>/index.m3u8`, `…/<rung>/init.mp4` and
 * `…/<rung>/<n>.m4s`: an item's shared transcode as players read it
 * (docs/2026-11-29-how-items-reach-browsers.md). Authorised as the media proxy is (the grant
 * verifies and names the transcode, its session is live, the holder still may play the item,
 * the operator's switch is on). The playlists are written here from the item's reach alone
 * (every gateway writes the same text); the segments come from the transcoder pool over NATS.
 * The paths are relative inside the playlists, so one grant reads every rung of its item.
 */
import Router, { type RouterContext } from '@koa/router';
import { requireProxySwitch } from '../../actors/index.js';
import { AppError } from '../../errors/index.js';
import type { MediaServices } from '../../media/index.js';
import { masterPlaylistOf, rungPlaylistOf, TRANSCODE_RESOURCE, transcodeRungs } from '../../media/index.js';
import type { SettingsReader } from '../../settings/index.js';
import type { HttpState } from '../http/state.js';
import type { GrantSessions } from './grant-sessions.js';
import type { MemberItems } from './member-items.js';

export interface TranscodeRouteDeps {
  media: MediaServices;
  members: MemberItems;
  sessions: GrantSessions;
  settings: SettingsReader;
}

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

export function transcodeRoutes(deps: TranscodeRouteDeps): Router<HttpState> {
  const router = new Router<HttpState>();

  const authorised = async (ctx: RouterContext<HttpState>) => {
    const grant = deps.media.grants.verify(ctx.params.token ?? '');
    if (grant.resource !== TRANSCODE_RESOURCE) throw new AppError('forbidden', 'this media link does not read a transcode');
    await deps.sessions.holder(grant);
    const item = await deps.members.item(grant.roomId, grant.userId, grant.mediaId);
    requireProxySwitch(deps.settings, item);
    const reach = item.reach;
    if (!reach || reach.how === 'direct') throw new AppError('failed_precondition', 'this media plays as it is; ask the room for its sources again');
    const transcode = deps.media.transcode;
    if (!transcode) throw new AppError('unavailable', 'this server has no transcoder pool');
    return { grant, item, reach, transcode };
  };

  const rungOf = (ctx: RouterContext<HttpState>, rungs: number[]): number => {
    const rung = Number(ctx.params.rung);
    if (!Number.isInteger(rung) || !rungs.includes(rung)) throw new AppError('not_found', `this transcode has no rung ${ctx.params.rung ?? ''}; it has ${rungs.join(', ')}`);
    return rung;
  };

  router.get('/media/transcode/:token/master.m3u8', async (ctx) => {
    const { reach } = await authorised(ctx);
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.type = PLAYLIST_TYPE;
    ctx.body = masterPlaylistOf(reach);
  });

  router.get('/media/transcode/:token/:rung/index.m3u8', async (ctx) => {
    const { reach } = await authorised(ctx);
    rungOf(ctx, transcodeRungs(reach));
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.type = PLAYLIST_TYPE;
    ctx.body = rungPlaylistOf(reach);
  });

  router.get('/media/transcode/:token/:rung/:file', async (ctx) => {
    const { grant, item, reach, transcode } = await authorised(ctx);
    const rung = rungOf(ctx, transcodeRungs(reach));
    const name = ctx.params.file ?? '';
    const segment = /^(0|[1-9][0-9]{0,6})\.m4s$/.exec(name);
    if (name !== 'init.mp4' && !segment) throw new AppError('not_found', `no file ${name} in a transcode: init.mp4 or <n>.m4s`);
    const aborter = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) aborter.abort();
    });
    const read = await transcode.read(grant.roomId, item, rung, segment ? Number(segment[1]) : 'init', aborter.signal);
    ctx.body = read.body;
    ctx.type = 'video/mp4';
    ctx.length = read.size;
    // A segment's bytes never change for its URL's life (the timeline is fixed).
    ctx.set('Cache-Control', 'private, max-age=3600');
  });
  return router;
}
