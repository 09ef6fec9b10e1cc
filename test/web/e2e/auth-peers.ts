/**
 * The real protocol peers the browser auth-flow tests talk to beside a web bed: the in-process
 * SMTP sink (test/fixtures/smtp-sink.ts) as the service's mail server, and the in-process OIDC
 * provider (test/fixtures/oidc-provider.ts) with clients whose redirect is the web client's
 * callback page on the bed's origin.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { TestOidcProvider } from '../../fixtures/oidc-provider.js';
import type { SmtpSink } from '../../fixtures/smtp-sink.js';
import { oidcInstance } from '../../accounts/oauth2/fixtures.js';
import { createPool } from '../../../postgres/pool.js';
import type { WebBed } from './browser.js';

/** The startup configuration that sends the service's mail to `sink`. */
export function smtpEnv(sink: SmtpSink): Record<string, string> {
  return {
    SVC_SMTP_HOST: sink.host,
    SVC_SMTP_PORT: String(sink.port),
    SVC_SMTP_USERNAME: sink.username,
    SVC_SMTP_PASSWORD: sink.password,
    SVC_SMTP_SENDER: 'svc <noreply@svc.test>',
  };
}

/** The 8-digit code of a sign-up or password reset mail (accounts/email/messages.ts). */
export function mailedCode(text: string): string {
  const code = /(?:confirmation|reset) code is (\d{8})/.exec(text)?.[1];
  if (!code) throw new Error(`no code in the mail: ${text}`);
  return code;
}

/**
 * The link of a sign-up, reset or "already registered" mail (accounts/email/messages.ts), whole,
 * as a mail client would open it. Each of those mails has exactly one.
 */
export function mailedLink(text: string): string {
  const links = text.match(/https?:\/\/\S+/g) ?? [];
  if (links.length !== 1) throw new Error(`not exactly one link in the mail: ${text}`);
  return links[0];
}

/**
 * Registers one client per instance at `op`, redirecting to `/oauth2/callback/<instance>` on the
 * bed's origin as a deployment's `redirectUrl` would, and makes them the `oauth2.providers`.
 */
export async function useOidcInstances(bed: WebBed, op: TestOidcProvider, instances: { name: string; enableSignup: boolean }[]): Promise<void> {
  const providers: Record<string, unknown>[] = [];
  for (const { name, enableSignup } of instances) {
    const spec = { instanceName: name, enableSignup, clientId: `web-${name}`, clientSecret: randomBytes(16).toString('hex'), redirectUrl: `${bed.origin}/oauth2/callback/${name}` };
    await op.addClient({ clientId: spec.clientId, clientSecret: spec.clientSecret, redirectUris: [spec.redirectUrl] });
    providers.push(oidcInstance(op, spec));
  }
  await bed.set('oauth2', { providers });
}

/**
 * Plays the person at the provider once the page has been sent there, up to the browser's
 * return to the bed's callback page. The fixture's login prompt is not a form: who signs in is
 * the `login_as` parameter of its interaction URL, the way its own `signIn` answers it. So the
 * person answers the prompt by opening that URL with the parameter, in this same browser, whose
 * cookies carry the interaction; consent then goes through without a page. A browser with a
 * provider session of its own would not be prompted: give each sign-in a fresh `bed.person()`.
 */
export async function signInAtProvider(page: Page, op: TestOidcProvider, sub: string, origin: string): Promise<void> {
  const provider = new URL(op.issuer).origin;
  await page.waitForURL((url) => url.origin === provider && url.pathname.startsWith('/interaction/'), { waitUntil: 'commit' });
  const prompt = new URL(page.url());
  prompt.searchParams.set('login_as', sub);
  await page.goto(prompt.href, { waitUntil: 'commit' });
  await page.waitForURL((url) => url.origin === origin && url.pathname.startsWith('/oauth2/callback/'), { waitUntil: 'commit' });
}

/** Rows of a query on the bed's database, for what the pages cannot show (which rows exist). */
export async function queryBed<T extends Record<string, unknown>>(bed: WebBed, sql: string, params: unknown[]): Promise<T[]> {
  const pool = createPool({ url: bed.databaseUrl, max: 1 });
  try {
    return (await pool.query<T>(sql, params)).rows;
  } finally {
    await pool.end();
  }
}
