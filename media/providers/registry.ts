/**
 * The providers this process knows, by name. Built-ins are registered at start
 * (`builtin.ts`), and so is anything else the service adds (the livestream provider, a
 * third-party provider): registration is open, the room actor and the routes only ask by name.
 * It is also the room actor's `MediaChecker`, so an unknown provider, or an item its provider
 * refuses, is rejected when added or edited.
 */
import { AppError, type FieldIssue } from '../../errors/index.js';
import type { MediaChecker, MediaFieldsToCheck } from '../../actors/index.js';
import type { MediaProvider, ProxyPolicy } from '../provider.js';

/** What clients are told about a provider (the add-media form's choice). */
export interface ProviderSummary {
  name: string;
  label: string;
  proxy: ProxyPolicy;
  live: boolean;
  embed?: { script: string; frameOrigin: string };
}

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

export class ProviderRegistry implements MediaChecker {
  private readonly providers = new Map<string, MediaProvider>();

  register(provider: MediaProvider): this {
    if (!NAME.test(provider.name)) throw new Error(`provider name "${provider.name}" must match ${NAME.source}`);
    if (this.providers.has(provider.name)) throw new Error(`provider "${provider.name}" is registered twice`);
    this.providers.set(provider.name, provider);
    return this;
  }

  get(name: string): MediaProvider | undefined {
    return this.providers.get(name);
  }

  /** The provider of a stored item; `not_found` when it is no longer registered on this server. */
  require(name: string): MediaProvider {
    const provider = this.providers.get(name);
    if (!provider) throw new AppError('not_found', `the media provider "${name}" is not available on this server`);
    return provider;
  }

  list(): ProviderSummary[] {
    return [...this.providers.values()].map(({ name, label, proxy, live, embed }) => ({ name, label, proxy, live, ...(embed ? { embed } : {}) }));
  }

  /** The embedded players' origins, for the content security policy. */
  embeds(): Array<{ script: string; frameOrigin: string }> {
    return [...this.providers.values()].flatMap((provider) => (provider.embed ? [provider.embed] : []));
  }

  startOf(fields: { provider: string; url: string }): number {
    return this.providers.get(fields.provider)?.startOf?.(fields.url) ?? 0;
  }

  checkMedia(fields: MediaFieldsToCheck): FieldIssue[] {
    const provider = this.providers.get(fields.provider);
    if (!provider) {
      const known = [...this.providers.keys()].join(', ');
      return [{ key: 'provider', message: `unknown provider "${fields.provider}"; this server has ${known}` }];
    }
    return provider.check?.({ url: fields.url, headers: fields.headers, ...(fields.roomId !== undefined ? { roomId: fields.roomId } : {}) }) ?? [];
  }
}
