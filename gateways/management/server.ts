import { chmod, mkdir, stat, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { ManagementEndpoint } from '../../config/index.js';
import { unstorableTextIn } from '../../contracts/text.js';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import { errorResponses } from '../http/errors.js';
import { requestId } from '../request-id.js';
import { managementRouter, type ManagementRouteDeps } from './routes.js';
import { MANAGEMENT_HEADER } from '../../contracts/management.js';
import { bearerToken, tokensMatch } from './token.js';
import { httpServer } from '../http/request-listener.js';

export interface ManagementServer {
  /** Where it listens, as the CLI would name it. */
  readonly address: string;
  close(): Promise<void>;
}

/**
 * The rule every transport applies to what a client sends (contracts/text.ts): no NUL or lone
 * surrogate in the path, query or body, so none reaches PostgreSQL (which refuses them: a 500).
 */
function refuseUnstorableText(): Koa.Middleware {
  return async (ctx, next) => {
    let path: string | undefined;
    try {
      path = decodeURIComponent(ctx.path);
    } catch {
      // Not decodable (a lone surrogate's bytes): the routes see it still encoded, as plain text.
    }
    const found = [...unstorableTextIn(path, 'path'), ...unstorableTextIn(ctx.query), ...unstorableTextIn((ctx.request as { body?: unknown }).body)];
    if (found.length > 0) throw AppError.invalid(found);
    await next();
  };
}

/**
 * Serves the management API on the configured endpoint. A Unix socket is created with mode
 * 0600 (only the service's own user may manage it); TCP requires the bearer token on every
 * request.
 */
export async function startManagementServer(
  endpoint: ManagementEndpoint,
  deps: ManagementRouteDeps & { logger: Logger },
): Promise<ManagementServer> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.set(MANAGEMENT_HEADER, '1');
    await next();
  });
  app.use(requestId(deps.logger));
  app.use(errorResponses());
  if (endpoint.kind === 'tcp') {
    const expected = endpoint.token;
    app.use(async (ctx, next) => {
      const presented = bearerToken(ctx.get('authorization'));
      if (presented === undefined) {
        throw new AppError('unauthenticated', 'management token missing: send "Authorization: Bearer <management.token>"');
      }
      if (!tokensMatch(presented, expected)) {
        throw new AppError('unauthenticated', 'management token rejected: it differs from this server\'s management.token');
      }
      await next();
    });
  }
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb' }));
  app.use(refuseUnstorableText());
  const router = managementRouter(deps, endpoint.kind);
  app.use(router.routes());
  app.use(router.allowedMethods());

  const server = httpServer(app);
  if (endpoint.kind === 'unix') {
    await prepareSocketPath(endpoint.path);
    await listen(server, () => server.listen(endpoint.path));
    await chmod(endpoint.path, 0o600);
  } else {
    await listen(server, () => server.listen(endpoint.port, endpoint.host));
  }
  const address = endpoint.kind === 'unix' ? `unix://${endpoint.path}` : `tcp://${endpoint.host}:${endpoint.port}`;
  deps.logger.info({ management: address }, 'management endpoint listening');

  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, start: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
    start();
  });
}

/**
 * A socket file left by a crashed process would make listen fail with EADDRINUSE. Remove it
 * only when nothing answers on it: a live socket means another server owns this endpoint.
 */
async function prepareSocketPath(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) return;
  const alive = await new Promise<boolean>((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (alive) {
    throw new AppError(
      'conflict',
      `management.endpoint unix://${path} is already served by another running process; give this replica its own management.endpoint or data_dir`,
    );
  }
  await unlink(path);
}
