import { join } from 'node:path';
import { AppError, type FieldIssue } from '../errors/index.js';
import type { ManagementEndpoint, StartupConfig } from './types.js';

/** `sun_path` is 108 bytes on Linux, one of which is the terminating NUL. */
export const MAX_UNIX_SOCKET_PATH_BYTES = 107;
export const MIN_MANAGEMENT_TOKEN_LENGTH = 24;

export const DEFAULT_SOCKET_NAME = 'svc.sock';

type ManagementInput = Pick<StartupConfig, 'data_dir' | 'management'>;

export interface ManagementCheck {
  endpoint?: ManagementEndpoint;
  issues: FieldIssue[];
}

/**
 * Parses `management.*`. The server listens on the result and the CLI connects to it, both
 * from the same configuration, so every disagreement (a token the socket would ignore, a
 * TCP port anyone on the network could reach without one) is refused here.
 */
export function checkManagementEndpoint(config: ManagementInput): ManagementCheck {
  const { endpoint, token } = config.management;
  if (endpoint === '') {
    if (config.data_dir === '') {
      return { issues: [{ key: 'data_dir', message: 'is required (the default management socket lives in it)' }] };
    }
    const path = join(config.data_dir, DEFAULT_SOCKET_NAME);
    return unixEndpoint(path, token, `the default socket ${path} (data_dir/${DEFAULT_SOCKET_NAME})`);
  }
  if (endpoint.startsWith('unix://')) {
    const path = endpoint.slice('unix://'.length);
    if (!path.startsWith('/')) {
      return issue('management.endpoint', `"${endpoint}" must name an absolute path, as in unix:///run/svc/svc.sock`);
    }
    if (path.endsWith('/')) return issue('management.endpoint', `"${endpoint}" must name a socket file, not a directory`);
    return unixEndpoint(path, token, `the socket path of "${endpoint}"`);
  }
  if (endpoint.startsWith('tcp://')) return tcpEndpoint(endpoint, token);
  return issue('management.endpoint', `"${endpoint}" must be unix:///absolute/path.sock or tcp://host:port`);
}

/** The endpoint to listen on or connect to; throws `invalid_argument` naming the keys. */
export function resolveManagementEndpoint(config: ManagementInput): ManagementEndpoint {
  const { endpoint, issues } = checkManagementEndpoint(config);
  if (!endpoint || issues.length > 0) throw AppError.invalid(issues);
  return endpoint;
}

function unixEndpoint(path: string, token: string, what: string): ManagementCheck {
  const issues: FieldIssue[] = [];
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_UNIX_SOCKET_PATH_BYTES) {
    issues.push({
      key: 'management.endpoint',
      message: `${what} is ${bytes} bytes; Unix sockets allow at most ${MAX_UNIX_SOCKET_PATH_BYTES} (choose a shorter path)`,
    });
  }
  if (token !== '') {
    issues.push({
      key: 'management.token',
      message:
        'must be empty for a Unix socket endpoint (the socket file permissions control access); remove it or use a tcp:// endpoint',
    });
  }
  return issues.length > 0 ? { issues } : { endpoint: { kind: 'unix', path }, issues };
}

function tcpEndpoint(endpoint: string, token: string): ManagementCheck {
  const issues: FieldIssue[] = [];
  const shape = `"${endpoint}" must be tcp://host:port`;
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    issues.push({ key: 'management.endpoint', message: `${shape} with a port in 1..65535` });
  }
  let host = '';
  let port = 0;
  if (url) {
    host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    port = Number(url.port);
    if (url.username || url.password || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
      issues.push({ key: 'management.endpoint', message: `${shape}, without credentials, path or query` });
    } else if (host === '' || url.port === '' || port < 1) {
      issues.push({ key: 'management.endpoint', message: `${shape} with both a host and a port in 1..65535` });
    }
  }
  if (token.length < MIN_MANAGEMENT_TOKEN_LENGTH) {
    issues.push({
      key: 'management.token',
      message:
        token === ''
          ? `is required for a tcp:// endpoint (at least ${MIN_MANAGEMENT_TOKEN_LENGTH} characters; generate one with \`svc secrets generate\`)`
          : `is too short for a tcp:// endpoint: at least ${MIN_MANAGEMENT_TOKEN_LENGTH} characters required`,
    });
  } else if (!/^[\x21-\x7e]+$/.test(token)) {
    issues.push({ key: 'management.token', message: 'must be printable ASCII without spaces (it travels in a header)' });
  }
  return issues.length > 0 ? { issues } : { endpoint: { kind: 'tcp', host, port, token }, issues };
}

function issue(key: string, message: string): ManagementCheck {
  return { issues: [{ key, message }] };
}
