import type { MediaServices } from '../../../media/index.js';
import { playInfoFor } from '../../../media/index.js';
import { subjectOf } from '../../../accounts/index.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import * as api from '../../../contracts/http/media.js';
import type { EndpointRouter } from '../endpoint-router.js';

/**
 * The media endpoints of `api/media.ts`. The play endpoint asks the room (as the caller) for
 * the item (`playlist.playable`), so membership and who may play what are the room's to decide:
 * the current item for every member, the others with `view_media_resources`. Then it builds the
 * sources from the item's provider (media/play-info.ts).
 */
export function mountMediaRoutes(router: EndpointRouter, deps: GatewayDeps, media: MediaServices): void {
  router
    .mount(api.getMediaProviders, (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = {
        providers: media.providers.list(),
        movieProxy: deps.settings.get('proxy.movieProxy'),
        liveProxy: deps.settings.get('proxy.liveProxy'),
      };
      return Promise.resolve();
    })
    .mount(api.getPlayInfo, async (ctx, { caller, params, query }) => {
      const { result } = await deps.rooms.send(params.roomId, { kind: 'playlist.playable', mediaId: params.mediaId }, caller);
      const item = result.item;
      const provider = media.providers.require(item.provider);
      const info = await playInfoFor(
        { grants: media.grants, resolutions: media.resolutions, settings: deps.settings, grantTtlMs: media.grantTtlMs, ...(media.transcode ? { transcode: media.transcode } : {}) },
        params.roomId,
        { userId: subjectOf(caller), sessionId: caller.sessionId },
        item,
        provider,
        { original: query.original === 'true', current: result.current },
      );
      ctx.set('Cache-Control', 'no-store');
      ctx.body = info;
    });
}
