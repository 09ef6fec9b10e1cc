/**
 * The rules that relate several startup keys, each named, beside the registry whose rows check
 * one key each (config/registry.ts). Validation runs the rows first, then these; a rule that
 * compares values asks `passed` first, so a value its own row refused is not judged twice.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { FieldIssue } from '../errors/index.js';
import { describeFsError } from './fs-error.js';
import type { StartupKeyName } from './keys.js';
import { urlProblems } from './key-rules.js';
import { checkManagementEndpoint } from './management-endpoint.js';
import type { StartupConfig } from './types.js';
import { checkWebAuthn } from './webauthn.js';

export interface CrossKeyRule {
  /** What the rule keeps true, in words (the key table lists it). */
  readonly name: string;
  /** The keys it reads; it reports on some of them. */
  readonly keys: readonly StartupKeyName[];
  check(config: StartupConfig, passed: (key: StartupKeyName) => boolean): FieldIssue[] | Promise<FieldIssue[]>;
}

const issue = (key: StartupKeyName, message: string): FieldIssue => ({ key, message });

const ROOM_RATES = [
  'rooms.chat_rate',
  'rooms.chat_burst',
  'rooms.command_rate',
  'rooms.read_rate',
  'rooms.ticket_rate',
  'rooms.guest_ticket_rate_per_address',
] as const satisfies readonly StartupKeyName[];

export const CROSS_KEY_RULES: readonly CrossKeyRule[] = [
  {
    name: 'server.trusted_proxies is set exactly when server.trust_proxy is true',
    keys: ['server.trust_proxy', 'server.trusted_proxies'],
    // Without a list every peer's header would be believed, and a client could name any address.
    check: ({ server }) => {
      if (server.trust_proxy && server.trusted_proxies.length === 0) {
        return [
          issue(
            'server.trusted_proxies',
            'is required when server.trust_proxy is true: list the networks of your reverse proxies, such as 127.0.0.1 or 10.0.0.0/8',
          ),
        ];
      }
      if (!server.trust_proxy && server.trusted_proxies.length > 0) return [issue('server.trusted_proxies', 'has no effect unless server.trust_proxy is true')];
      return [];
    },
  },
  {
    name: 'sfu.url, sfu.api_key and sfu.api_secret are set together',
    keys: ['sfu.url', 'sfu.api_key', 'sfu.api_secret'],
    check: ({ sfu }) => {
      if (sfu.url === '') return sfu.api_key !== '' || sfu.api_secret !== '' ? [issue('sfu.url', 'is required when sfu.api_key or sfu.api_secret is set')] : [];
      const issues = [];
      if (sfu.api_key === '') issues.push(issue('sfu.api_key', 'is required when sfu.url is set'));
      if (sfu.api_secret.length < 32) issues.push(issue('sfu.api_secret', 'is required when sfu.url is set, at least 32 characters'));
      return issues;
    },
  },
  {
    name: 'turn.urls and turn.shared_secret are set together',
    keys: ['turn.urls', 'turn.shared_secret'],
    check: ({ turn }) => {
      if (turn.urls.length > 0 && turn.shared_secret === '') return [issue('turn.shared_secret', 'is required when turn.urls is set')];
      if (turn.urls.length === 0 && turn.shared_secret !== '') return [issue('turn.urls', 'is required when turn.shared_secret is set')];
      return [];
    },
  },
  {
    name: 'rooms.chat_burst is at least rooms.chat_rate',
    keys: ROOM_RATES,
    // A burst below the steady rate would make the rate a lie; judged once every rate is in range.
    check: ({ rooms }, passed) =>
      ROOM_RATES.every(passed) && rooms.chat_burst < rooms.chat_rate ? [issue('rooms.chat_burst', 'must be at least rooms.chat_rate')] : [],
  },
  {
    name: 'tls.cert_file and tls.key_file are readable files when tls.enabled',
    keys: ['tls.enabled', 'tls.cert_file', 'tls.key_file'],
    check: async ({ tls }) => {
      if (!tls.enabled) return [];
      const files: Array<[StartupKeyName, string]> = [
        ['tls.cert_file', tls.cert_file],
        ['tls.key_file', tls.key_file],
      ];
      const issues: FieldIssue[] = [];
      for (const [key, path] of files) {
        if (path === '') {
          issues.push(issue(key, 'is required when tls.enabled is true'));
          continue;
        }
        try {
          await access(path, constants.R_OK);
        } catch (err) {
          issues.push(issue(key, `cannot read ${path}: ${describeFsError(err)}`));
        }
      }
      return issues;
    },
  },
  {
    name: 'actors.heartbeat_ms is at most a third of actors.lease_ttl_ms',
    keys: ['actors.lease_ttl_ms', 'actors.heartbeat_ms'],
    check: ({ actors }, passed) =>
      passed('actors.lease_ttl_ms') && passed('actors.heartbeat_ms') && actors.heartbeat_ms * 3 > actors.lease_ttl_ms
        ? [
            issue(
              'actors.heartbeat_ms',
              `must be at most a third of actors.lease_ttl_ms (${actors.lease_ttl_ms} ms) so one late beat does not expire the lease`,
            ),
          ]
        : [],
  },
  {
    name: 'youtube.embed_origin is an origin while youtube.iframe_api_url is set',
    keys: ['youtube.iframe_api_url', 'youtube.embed_origin'],
    check: ({ youtube }) => {
      if (youtube.iframe_api_url === '') return [];
      const frames = youtube.embed_origin;
      const problems = [...urlProblems(frames, ['https:', 'http:'], 'https://www.youtube-nocookie.com')];
      // An origin, nothing more: it goes into the content security policy's frame-src as it is.
      if (problems.length === 0 && new URL(frames).origin !== frames) {
        problems.push(`"${frames}" must be an origin only (scheme://host[:port]), such as https://www.youtube-nocookie.com`);
      }
      return problems.map((message) => issue('youtube.embed_origin', message));
    },
  },
  {
    name: 'smtp.sender is an email address when smtp.host is set',
    keys: ['smtp.host', 'smtp.sender'],
    check: ({ smtp }) => {
      if (smtp.host === '') return [];
      // Deliberately loose: one "@", something on each side, a dot in the domain. The SMTP
      // server is the authority on deliverability; this catches a forgotten or swapped value.
      const address = /<([^<>]+)>\s*$/.exec(smtp.sender)?.[1] ?? smtp.sender;
      if (/^[^\s@]+@(?:[^\s@.]+\.)+[^\s@.]+$/.test(address.trim())) return [];
      return [issue('smtp.sender', smtp.sender === '' ? 'is required when smtp.host is set' : `"${smtp.sender}" is not an email address`)];
    },
  },
  {
    name: 'management.endpoint, management.token and data_dir agree (a token for TCP only, a socket path that fits)',
    keys: ['data_dir', 'management.endpoint', 'management.token'],
    check: (config) => checkManagementEndpoint(config).issues,
  },
  {
    name: 'webauthn.rp_id is the host of webauthn.rp_origin or a registrable suffix of it',
    keys: ['webauthn.rp_origin', 'webauthn.rp_id'],
    check: ({ webauthn }) => checkWebAuthn(webauthn),
  },
];
