import type { Accounts } from '../../../accounts/index.js';
import { packageVersion } from '../../../observability/index.js';
import * as api from '../../../contracts/http/public.js';
import type { EndpointRouter } from '../endpoint-router.js';

/**
 * `GET /api/public/info` and `/time`. The info is read on every request from the runtime
 * settings cache and the startup config, so a settings change shows at once.
 */
export function mountPublicRoutes(router: EndpointRouter, accounts: Accounts, offers: { sfu: boolean }): void {
  const { settings, config } = accounts.deps;
  router
    .mount(api.getPublicInfo, (ctx) => {
      const mail = accounts.deps.mailer?.configured ?? false;
      const webauthn = Boolean(config.webauthn?.rp_origin && config.webauthn.rp_id);
      const providers = settings.get('oauth2.providers');
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = {
        version: packageVersion(),
        signIn: {
          opaque: true,
          password: true,
          email: mail,
          webauthn,
          oauth2: providers.map((provider) => provider.instanceName),
        },
        signup: {
          password: { enabled: settings.get('user.enablePasswordSignup'), needsReview: settings.get('user.passwordSignupNeedReview') },
          email: { enabled: settings.get('user.enableEmailSignup') && mail, needsReview: settings.get('user.emailSignupNeedReview') },
          webauthn: { enabled: settings.get('user.enableWebauthnSignup') && webauthn, needsReview: settings.get('user.webauthnSignupNeedReview') },
          oauth2: providers.map((provider) => ({
            instanceName: provider.instanceName,
            enabled: provider.enableSignup === true,
            needsReview: provider.signupNeedReview === true,
          })),
        },
        guests: settings.get('user.enableGuest'),
        rooms: {
          creationAllowed: settings.get('server.allowRoomCreation') && !settings.get('room.disableCreateRoom'),
          creationNeedsReview: settings.get('room.createRoomNeedReview'),
          passwordPolicy: settings.get('room.passwordPolicy'),
          maxRoomsPerUser: settings.get('server.maxRoomsPerUser'),
          maxMembersPerRoom: settings.get('server.maxMembersPerRoom'),
        },
        calls: { sfu: offers.sfu },
      };
      return Promise.resolve();
    })
    .mount(api.getServerTime, (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { now: Date.now() };
      return Promise.resolve();
    });
}
