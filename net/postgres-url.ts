/**
 * PostgreSQL connection URLs as libpq reads them, including its multi-host form:
 * `postgres://user@db1:5432,db2:5432/svc?target_session_attrs=read-write` names several
 * servers, and the session attribute says which of them a connection must land on. node-postgres
 * understands one host only, so the list is taken apart here and each host gets a URL of its own
 * (postgres/host-selector.ts tries them).
 */

/** Which server a session may use: any that answers, or only one that accepts writes. */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';
const TARGET_SESSION_ATTRS: readonly TargetSessionAttrs[] = ['any', 'read-write', 'primary'];

export interface PostgresHost {
  host: string;
  port: number;
}

export interface PostgresUrl {
  hosts: PostgresHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /** A single-host URL for `host` that node-postgres parses: same user, database and options. */
  urlFor(host: PostgresHost): string;
}

const DEFAULT_PORT = 5432;
const SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^@/?#]*)((?:\/[^?#]*)?)(\?[^#]*)?$/i;

/** Throws an Error whose message says what is wrong (without the password). */
export function parsePostgresUrl(text: string): PostgresUrl {
  const match = SHAPE.exec(text.trim());
  if (!match) throw new Error('is not a postgres:// or postgresql:// URL');
  const [, scheme, userinfo, hostList, path, query] = match as unknown as [string, string, string | undefined, string, string, string | undefined];
  const entries = hostList.split(',');
  const hosts = entries.map((entry, index) => parseHost(entry, entries.length > 1 ? index + 1 : undefined));
  const params = new URLSearchParams(query?.slice(1) ?? '');
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new Error(`has target_session_attrs=${attrs}; expected one of ${TARGET_SESSION_ATTRS.join(', ')}`);
  }
  // Not a server option: node-postgres would send it to the server, which refuses it.
  params.delete('target_session_attrs');
  const options = params.toString();
  const rest = `${path}${options === '' ? '' : `?${options}`}`;
  const user = userinfo === undefined ? '' : `${userinfo}@`;
  return {
    hosts,
    targetSessionAttrs: attrs as TargetSessionAttrs,
    urlFor: (host) => `${scheme}${user}${host.host.includes(':') ? `[${host.host}]` : host.host}:${host.port}${rest}`,
  };
}

function parseHost(entry: string, position: number | undefined): PostgresHost {
  const which = position === undefined ? 'the host' : `host ${position}`;
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d*))?$/i.exec(entry);
  const plain = /^([^:[\]]*)(?::(\d*))?$/.exec(entry);
  const parts = bracketed ?? plain;
  if (!parts) throw new Error(`has ${which} "${entry}", which is not host or host:port`);
  const host = parts[1] ?? '';
  if (host === '') throw new Error(position === undefined ? 'has no host' : `has no host at position ${position} of its host list`);
  const portText = parts[2];
  if (portText === undefined || portText === '') return { host, port: DEFAULT_PORT };
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`has ${which} "${entry}" with port ${portText}, not 1-65535`);
  return { host, port };
}
