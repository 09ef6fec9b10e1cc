/**
 * `GET`/`HEAD /media/proxy/<token>[/<name>]`, and `/media/proxy/<token>/<path…>` under a DASH
 * manifest's folder grant: the media proxy's HTTP side. It authorises (the
 * grant verifies and names this resource, its session is live, the holder is still a member who may see the item,
 * the operator's switch is on), then lets `MediaProxy` read upstream and streams its answer.
 * A client that goes away aborts the upstream read.
 */
import Router, { type RouterContext } from '@koa/router';
import { AppError } from '../../errors/index.js';
import { isSlicePieces } from '../../media/index.js';
import { writePieces } from '../../media/index.js';
import type { MediaServices } from '../../media/index.js';
import { requireProxySwitch } from '../../actors/index.js';
import { isProxied } from '../../media/index.js';
import type { MediaProxy } from '../../media/index.js';
import type { SettingsReader } from '../../settings/index.js';
import type { HttpState } from '../http/state.js';
import type { GrantSessions } from './grant-sessions.js';
import type { MemberItems } from './member-items.js';

export interface ProxyRouteDeps {
  media: MediaServices;
  proxy: MediaProxy;
  members: MemberItems;
  sessions: GrantSessions;
  settings: SettingsReader;
}

export function mediaProxyRoutes(deps: ProxyRouteDeps): Router<HttpState> {
  const router = new Router<HttpState>();
  const handle = async (ctx: RouterContext<HttpState>): Promise<void> => {
    const grant = deps.media.grants.verify(ctx.params.token ?? '');
    await deps.sessions.holder(grant);
    const item = await deps.members.item(grant.roomId, grant.userId, grant.mediaId);
    requireProxySwitch(deps.settings, item);
    const provider = deps.media.providers.require(item.provider);
    if (!isProxied(provider, item)) throw new AppError('forbidden', 'this media is no longer played through the proxy; ask the room for its sources again');

    const aborter = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) aborter.abort();
    });
    const answer = await deps.proxy.serve(
      { grant, item, provider },
      { method: ctx.method === 'HEAD' ? 'HEAD' : 'GET', range: ctx.get('Range') || undefined, signal: aborter.signal, tail: tailOf(ctx.url) },
    );
    // 'close' comes once the body is written or the client is gone: a pooled buffer is free then.
    if (answer.release) ctx.res.once('close', answer.release);
    if (isSlicePieces(answer.body)) {
      ctx.status = answer.status;
      ctx.set(answer.headers);
      // Written here, not by Koa: each piece's buffer goes back to the cache once written.
      ctx.respond = false;
      await writePieces(ctx.res, answer.body);
      return;
    }
    // Body first: Koa's setter would otherwise drop the Content-Length set below.
    if (answer.body !== null && ctx.method !== 'HEAD') ctx.body = answer.body;
    else if (answer.body && 'destroy' in answer.body) answer.body.destroy();
    ctx.status = answer.status;
    ctx.set(answer.headers);
  };
  router.get('/media/proxy/:token', handle);
  router.get('/media/proxy/:token/:name', handle);
  router.get('/media/proxy/:token/*path', handle);
  return router;
}

/** The request's path after the token, as sent (percent-encoded), with its query string. */
function tailOf(url: string): string {
  const afterPrefix = url.slice(url.indexOf('/media/proxy/') + '/media/proxy/'.length);
  const slash = afterPrefix.indexOf('/');
  return slash === -1 ? '' : afterPrefix.slice(slash + 1);
}
