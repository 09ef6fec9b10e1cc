import Koa from 'koa';
import type { Accounts } from '../../accounts/index.js';
import type { StartupConfig } from '../../config/index.js';
import type { Logger } from '../../observability/index.js';
import type { HttpMetrics } from '../../observability/index.js';
import type { ReadinessProbe } from '../../observability/index.js';
import type { ReviewClient } from '../../workflows/index.js';
import type { ReviewLink } from '../../workflows/index.js';
import type { GatewayDeps } from '../gateway-deps.js';
import { mediaCors } from '../media/media-cors.js';
import { GrantSessions } from '../media/grant-sessions.js';
import { MemberItems } from '../media/member-items.js';
import { mediaProxyRoutes } from '../media/proxy-routes.js';
import { transcodeRoutes } from '../media/transcode-routes.js';
import { proxyTraffic } from '../media/proxy-metrics.js';
import { MediaProxy } from '../../media/index.js';
import { ClientAddresses } from '../../net/index.js';
import { accessLog } from './access-log.js';
import { clientAddress } from './client-address.js';
import { bearerCallerResolver } from './authenticate.js';
import { corsPolicy } from './cors.js';
import { errorResponses } from './errors.js';
import { healthRoutes } from './health.js';
import { requestId } from '../request-id.js';
import { requestMetrics } from './request-metrics.js';
import { requestTracing } from './request-tracing.js';
import { tracingEnabled } from '../../observability/index.js';
import { mountRoomCommands } from './room-command-route.js';
import { EndpointRouter } from './endpoint-router.js';
import { openApiRoutes } from './openapi.js';
import { mountAdminRoomRoutes } from './routes/admin-rooms.js';
import { mountAdminSettingRoutes } from './routes/admin-settings.js';
import { mountAdminRoutes } from './routes/admin.js';
import { mountAuthRoutes } from './routes/auth.js';
import { CALL_ROUTES, mountCallRoutes } from './routes/call.js';
import { CHAT_ROUTES } from './routes/chat.js';
import { POLL_ROUTES } from './routes/polls.js';
import { DANMAKU_ROUTES } from './routes/danmaku.js';
import { mountEmailRoutes } from './routes/email.js';
import { mountLibraryRoutes } from './routes/libraries.js';
import { mountLiveRoutes } from './routes/live.js';
import { mediaLiveRoutes } from './routes/media-live.js';
import { mountMediaRoutes } from './routes/media.js';
import { mountSubtitleRoutes } from './routes/subtitles.js';
import { emoteImageRoutes, mountEmoteRoutes } from './routes/emotes.js';
import { memberRoutes } from './routes/members.js';
import { mountNotificationRoutes } from './routes/notifications.js';
import { mountOAuth2Routes } from './routes/oauth2.js';
import { PLAYBACK_ROUTES } from './routes/playback.js';
import { playlistRoutes } from './routes/playlist.js';
import { mountPublicRoutes } from './routes/public.js';
import { mountRealtimeRoutes } from './routes/realtime.js';
import { mountRoomRoutes } from './routes/rooms.js';
import { mountTwoFactorRoutes } from './routes/two-factor.js';
import { mountUserRoutes } from './routes/users.js';
import { avatarRoutes } from './routes/avatars.js';
import { mountCloseAccountRoute } from './routes/close-account.js';
import { mountFavouriteRoutes } from './routes/favourites.js';
import { mountWebAuthnRoutes } from './routes/webauthn.js';
import { webClient, type WebClientOptions } from './web-client.js';
import type { CookiePolicy } from './session-cookie.js';
import type { HttpState } from './state.js';

export interface HttpAppOptions {
  config: Pick<StartupConfig, 'server'>;
  logger: Logger;
  readiness: ReadinessProbe;
  /** `createMetrics().http`; its registry is served by the metrics listener, not here. */
  metrics: HttpMetrics;
  /** The public API; without it only health, metrics and the OpenAPI document are served. */
  api?: {
    accounts: Accounts;
    cookies: CookiePolicy;
    /** Review workflows for the admin endpoints; without it they answer `unavailable`. */
    reviews?: ReviewClient;
    /** Links reviews to their workflow in the Temporal UI. */
    reviewLink?: ReviewLink;
    /** Rooms, notifications and the realtime gateway; without it only the accounts API is served. */
    gateway?: GatewayDeps;
  };
  /** Serve the browser client at `/` (with the public API). */
  webClient?: WebClientOptions;
}

/**
 * The Koa application of the main HTTP API. Feature routers are mounted on the returned
 * app with `app.use(router.routes())`; they run inside the error middleware, so their
 * errors and unmatched paths get the documented error body.
 */
export function createHttpApp(options: HttpAppOptions): Koa<HttpState> {
  const { config, logger, readiness, metrics } = options;
  const app = new Koa<HttpState>();
  // X-Forwarded-Proto and -Host; the client address is clientAddress's alone.
  app.proxy = config.server.trust_proxy;

  // Only errors thrown by the outer middleware themselves get here; everything else is
  // answered by errorResponses. A listener replaces Koa's default stderr printer.
  app.on('error', (err: unknown) => logger.error({ err }, 'unhandled error in HTTP middleware'));

  const health = healthRoutes(readiness);

  app.use(clientAddress(new ClientAddresses(config.server)));
  app.use(requestId(logger));
  // Only in a traced process: an untraced one does not even pass through it.
  if (tracingEnabled()) app.use(requestTracing());
  app.use(accessLog());
  app.use(requestMetrics(metrics));
  app.use(corsPolicy(config.server.cors_allowed_origins));
  const gatewayDeps = options.api?.gateway;
  if (gatewayDeps) app.use(mediaCors(gatewayDeps.settings));
  // Who may still read media links, remembered for the proxy and the livestream routes alike.
  const members = gatewayDeps ? new MemberItems(gatewayDeps.rooms) : undefined;
  const grantSessions = gatewayDeps ? new GrantSessions(gatewayDeps.accounts.sessions, gatewayDeps.connections) : undefined;
  app.use(errorResponses());
  app.use(methodNotImplementedIsNotAllowed());
  // Outside the routers: it answers only what none of them did.
  if (options.webClient) app.use(webClient(options.webClient));
  app.use(health.routes());
  app.use(health.allowedMethods());
  const openapi = openApiRoutes();
  app.use(openapi.routes());
  // Outside /api, and answered before the web client's fallback could see these paths.
  if (gatewayDeps?.media && members && grantSessions) {
    const { media } = gatewayDeps;
    const proxy = new MediaProxy({
      client: media.client,
      resolutions: media.resolutions,
      grants: media.grants,
      playlistLimitBytes: media.playlistLimitBytes,
      traffic: proxyTraffic(metrics.registry),
      ...(gatewayDeps.sliceCache ? { cache: gatewayDeps.sliceCache } : {}),
    });
    const proxyRoutes = mediaProxyRoutes({ media, proxy, members, sessions: grantSessions, settings: gatewayDeps.settings });
    app.use(proxyRoutes.routes());
    app.use(proxyRoutes.allowedMethods());
    const transcoded = transcodeRoutes({ media, members, sessions: grantSessions, settings: gatewayDeps.settings });
    app.use(transcoded.routes());
    app.use(transcoded.allowedMethods());
  }

  if (options.api) {
    const { accounts, cookies } = options.api;
    const api = new EndpointRouter(bearerCallerResolver(accounts.tokens, accounts.sessions));
    mountAuthRoutes(api, accounts, cookies);
    mountEmailRoutes(api, accounts, cookies);
    mountTwoFactorRoutes(api, accounts, cookies);
    mountUserRoutes(api, accounts);
    mountWebAuthnRoutes(api, accounts, cookies);
    mountOAuth2Routes(api, accounts, cookies);
    mountAdminRoutes(api, accounts, options.api.reviews, options.api.reviewLink);
    const { gateway } = options.api;
    mountPublicRoutes(api, accounts, { sfu: gateway?.sfu !== undefined });
    if (gateway) {
      mountRoomRoutes(api, gateway);
      mountCloseAccountRoute(api, accounts, gateway);
      mountFavouriteRoutes(api, gateway.pool);
      mountRoomCommands(api, gateway.commands, [...memberRoutes(gateway.settings), ...playlistRoutes(gateway.media), ...PLAYBACK_ROUTES, ...CHAT_ROUTES, ...POLL_ROUTES, ...DANMAKU_ROUTES, ...CALL_ROUTES]);
      mountCallRoutes(api, gateway);
      if (gateway.media) mountMediaRoutes(api, gateway, gateway.media);
      if (gateway.media) mountSubtitleRoutes(api, gateway, gateway.media);
      mountEmoteRoutes(api, gateway);
      mountAdminRoomRoutes(api, gateway);
      mountAdminSettingRoutes(api, gateway.settings);
      mountNotificationRoutes(api, gateway.pool);
      mountRealtimeRoutes(api, gateway);
      mountLiveRoutes(api, gateway);
      if (gateway.media?.libraries) mountLibraryRoutes(api, gateway, gateway.media.libraries);
    }
    app.use(api.router.routes());
    app.use(api.allowedMethods());
    app.use(avatarRoutes(accounts.deps.pool).routes());
    if (gateway) app.use(emoteImageRoutes(gateway.pool).routes());
    if (gateway?.live && members && grantSessions) {
      app.use(mediaLiveRoutes(gateway.live, gateway.settings, { members, sessions: grantSessions, connections: gateway.connections, feeds: gateway.feeds }).routes());
    }
  }

  return app;
}

/**
 * The routers answer a method they never implement (TRACE, CONNECT, ...) with 501, a server
 * error; for a client it is the same mistake as any other wrong method, so it is 405.
 */
function methodNotImplementedIsNotAllowed(): Koa.Middleware<HttpState> {
  return async (ctx, next) => {
    await next();
    if (ctx.status === 501 && ctx.body == null) ctx.status = 405;
  };
}
