/** Every public endpoint, in the order the OpenAPI document lists them. */
import * as admin from './admin.js';
import * as auth from './auth.js';
import * as email from './email.js';
import type { Endpoint } from './endpoint.js';
import * as notifications from './notifications.js';
import * as oauth2 from './oauth2.js';
import * as realtime from './realtime.js';
import * as twoFactor from './two-factor.js';
import * as users from './users.js';
import * as webauthn from './webauthn.js';

function endpointsOf(module: Record<string, unknown>): Endpoint[] {
  return Object.values(module).filter((value): value is Endpoint => typeof value === 'object' && value !== null && 'operationId' in value);
}

export const ENDPOINTS: readonly Endpoint[] = [
  ...endpointsOf(auth),
  ...endpointsOf(email),
  ...endpointsOf(twoFactor),
  ...endpointsOf(users),
  ...endpointsOf(webauthn),
  ...endpointsOf(oauth2),
  ...endpointsOf(admin),
  ...endpointsOf(notifications),
  ...endpointsOf(realtime),
];
