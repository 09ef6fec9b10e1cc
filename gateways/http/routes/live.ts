import { actorCallerOf } from '../../../accounts/index.js';
import type { Caller } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import { publishUrls } from '../../../media/index.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import type { LiveDeps } from '../../rtmp/live-deps.js';
import * as api from '../../../contracts/http/live.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { HttpContext } from '../state.js';

/**
 * The stream-key endpoints of `api/live.ts`. The room decides who may publish
 * (`live.authorize`: `publish_livestream` and a live item); the key store only stores.
 */
export function mountLiveRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { commands } = deps;
  const liveDeps = (): LiveDeps => {
    if (!deps.live) throw new AppError('unavailable', 'livestreams are not available on this server');
    return deps.live;
  };

  const view = async (ctx: HttpContext, caller: Caller, roomId: string, mediaId: string, rotate: boolean) => {
    const live = liveDeps();
    const { result } = await commands.send({ transport: 'http', caller, roomId, operation: 'live.authorize', command: { kind: 'live.authorize', mediaId }, trace: ctx.state.trace });
    const target = { roomId, mediaId };
    const { userId } = actorCallerOf(caller);
    const key = rotate ? await live.keys.rotate(target, userId) : await live.keys.current(target, userId);
    if (rotate) live.keyChanged(target);
    const urls = publishUrls(
      {
        customPublishHost: deps.settings.get('rtmp.customPublishHost'),
        publicUrl: deps.config.server.public_url,
        requestHost: ctx.host,
        rtmpPort: live.rtmpPort(),
      },
      key,
    );
    ctx.set('Cache-Control', 'no-store');
    return { mediaId, ...urls, online: result.online && !rotate };
  };

  router
    .mount(api.getStreamKey, async (ctx, { caller, params }) => {
      ctx.body = await view(ctx, caller, params.roomId, params.mediaId, false);
    })
    .mount(api.rotateStreamKey, async (ctx, { caller, params }) => {
      ctx.body = await view(ctx, caller, params.roomId, params.mediaId, true);
    });
}
