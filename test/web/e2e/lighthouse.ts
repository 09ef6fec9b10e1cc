/**
 * Debian's Chromium as an ordinary browser profile (not incognito: Chromium calls nothing
 * installable in an incognito context, and Lighthouse drives the default context) with a
 * DevTools port, and Lighthouse from npm run against it (lighthouse.test.ts, bench/app-shell.ts).
 * The profile keeps its storage between runs (`disableStorageReset`): a repeat visit is served
 * by the service worker, as it is for a person who came back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Flags, Result } from 'lighthouse';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { uniqueIp } from '../../fixtures/client-address.js';
import { freePort } from '../../harness/stack.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';

export interface Profile {
  context: BrowserContext;
  page: Page;
  /** The DevTools port Lighthouse connects to. */
  port: number;
  close(): Promise<void>;
}

export async function openProfile(origin: string): Promise<Profile> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-profile-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    baseURL: origin,
    // One address for the profile: Lighthouse's own page sends no extra headers, so the service sees 127.0.0.1 there.
    extraHTTPHeaders: { 'x-forwarded-for': uniqueIp() },
    args: [CHROMIUM_FLAGS.smallShm, `--remote-debugging-port=${port}`],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    port,
    async close() {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type FormFactor = 'phone' | 'desktop';

/**
 * One Lighthouse run of `url`: the phone profile is Lighthouse's default (a mid-range phone,
 * 4x slower CPU, slow 4G), desktop its desktop configuration. `flags` narrows the categories or
 * changes the throttling.
 */
export async function runLighthouse(url: string, port: number, formFactor: FormFactor, flags: Flags = {}): Promise<Result> {
  const answer = await lighthouse(url, { port, output: 'json', logLevel: 'error', disableStorageReset: true, ...flags }, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!answer) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (answer.lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${answer.lhr.runtimeError.code} ${answer.lhr.runtimeError.message}`);
  return answer.lhr;
}

/** The audits of a category that apply here and do not pass, as readable lines. */
export function failedAudits(result: Result, category: string): string[] {
  const refs = result.categories[category]?.auditRefs ?? [];
  return refs
    .map((ref) => result.audits[ref.id]!)
    .filter((audit) => (audit.scoreDisplayMode === 'binary' || audit.scoreDisplayMode === 'numeric' || audit.scoreDisplayMode === 'metricSavings') && audit.score !== 1)
    .map((audit) => `${category} ${audit.id}: ${audit.title} (score ${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ''})${itemsOf(audit)}`);
}

/** What an audit found, where it lists it (the console's errors, the elements that failed). */
function itemsOf(audit: Result['audits'][string]): string {
  const details = audit.details as { items?: Array<Record<string, unknown>> } | undefined;
  const items = (details?.items ?? []).map((item) => {
    const node = item.node as { snippet?: string } | undefined;
    const source = item.sourceLocation as { url?: string } | undefined;
    return [item.description, item.url, source?.url, node?.snippet].filter((part) => typeof part === 'string' && part !== '').join(' ');
  });
  return items.length > 0 ? `: ${items.join('; ')}` : '';
}
