/**
 * `GET /media/transcode/<grant>/master.m3u8`, `…/<rung>/index.m3u8`, `…/<rung>/init.mp4` and
 * `…/<rung>/<n>.m4s`: an item's shared transcode as players read it
 * (docs/2026-11-29-how-items-reach-browsers.md). Authorised as the media proxy is (the grant
 * verifies and names the transcode, its session is live, the holder still may play the item,
 * the operator's switch is on). The playlists are written here from the item's reach alone
 * (every gateway writes the same text); the segments come from the transcoder pool over NATS.
 * The paths are relative inside the playlists, so one grant reads every rung of its item.
 *
 * A burned variant (media/transcode/burn.ts) is read under the same grant: `master-s<index>.m3u8`
 * lists rungs `<height>-s<index>`, whose files are named as the plain rungs' are. `<index>` must
 * be one of the item's burnable image subtitle streams, else 404 naming those it has.
 */
import Router, { type RouterContext } from '@koa/router';
import { requireProxySwitch } from '../../actors/index.js';
import type { MediaReach } from '../../contracts/room/reach.js';
import { AppError } from '../../errors/index.js';
import type { MediaServices } from '../../media/index.js';
import { burnedReach, masterPlaylistOf, parseMasterName, parseRungName, requireBurnable, rungPlaylistOf, TRANSCODE_RESOURCE, transcodeRungs } from '../../media/index.js';
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

  /** The reach the playlists of a variant are written from: the item's, or with `burn` its burned reach. */
  const variantReach = (reach: MediaReach, burn: number | undefined): MediaReach => {
    if (burn === undefined) return reach;
    requireBurnable(reach, burn);
    return burnedReach(reach, deps.media.transcodeMaxHeight);
  };

  /** The rung (and burned stream) the path names, checked against the variant's rungs. */
  const rungOf = (ctx: RouterContext<HttpState>, reach: MediaReach): { rung: number; burn: number | undefined; reach: MediaReach } => {
    const named = parseRungName(ctx.params.rung ?? '');
    const variant = variantReach(reach, named?.burn);
    const rungs = transcodeRungs(variant);
    if (!named || !rungs.includes(named.rung)) {
      const names = rungs.map((rung) => (named?.burn === undefined ? String(rung) : `${rung}-s${named.burn}`));
      throw new AppError('not_found', `this transcode has no rung ${ctx.params.rung ?? ''}; it has ${names.join(', ')}`);
    }
    return { rung: named.rung, burn: named.burn, reach: variant };
  };

  router.get('/media/transcode/:token/:master', async (ctx) => {
    const { reach } = await authorised(ctx);
    const name = ctx.params.master ?? '';
    const master = parseMasterName(name);
    if (!master) throw new AppError('not_found', `no file ${name} in a transcode: master.m3u8, or master-s<index>.m3u8 with a picture subtitle burned in`);
    const variant = variantReach(reach, master.burn);
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.type = PLAYLIST_TYPE;
    ctx.body = masterPlaylistOf(variant, master.burn);
  });

  router.get('/media/transcode/:token/:rung/index.m3u8', async (ctx) => {
    const { reach } = await authorised(ctx);
    const { reach: variant } = rungOf(ctx, reach);
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.type = PLAYLIST_TYPE;
    ctx.body = rungPlaylistOf(variant);
  });

  router.get('/media/transcode/:token/:rung/:file', async (ctx) => {
    const { grant, item, reach, transcode } = await authorised(ctx);
    const { rung, burn } = rungOf(ctx, reach);
    const name = ctx.params.file ?? '';
    const segment = /^(0|[1-9][0-9]{0,6})\.m4s$/.exec(name);
    if (name !== 'init.mp4' && !segment) throw new AppError('not_found', `no file ${name} in a transcode: init.mp4 or <n>.m4s`);
    const aborter = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) aborter.abort();
    });
    const read = await transcode.read(grant.roomId, item, { rung, burn }, segment ? Number(segment[1]) : 'init', aborter.signal);
    ctx.body = read.body;
    ctx.type = 'video/mp4';
    ctx.length = read.size;
    // A segment's bytes never change for its URL's life (the timeline is fixed).
    ctx.set('Cache-Control', 'private, max-age=3600');
  });
  return router;
}
