import type { OAuth2ProviderSettings } from '../../../settings/index.js';
import type { IssuerChange } from '../../../contracts/management.js';
import { toInstance, type OAuth2Instance } from './instances.js';

/**
 * What a write of `oauth2.providers` does to existing bindings: an instance that keeps its
 * name but now has another provider kind or issuer no longer signs in the identities bound
 * through it (bindings record who vouched for them). Whoever writes the setting is told which
 * instances those are, in the answer of every path that writes it.
 */
export type { IssuerChange } from '../../../contracts/management.js';

/** The instances of `previous` whose kind or issuer differs in `current` (removed ones are not listed). */
export function issuerChanges(previous: readonly OAuth2ProviderSettings[], current: readonly OAuth2ProviderSettings[]): IssuerChange[] {
  const before = new Map(previous.map((entry) => [entry.instanceName, toInstance(entry)]));
  const changes: IssuerChange[] = [];
  for (const after of current.map(toInstance)) {
    const old = before.get(after.name);
    if (!old || (old.kind === after.kind && old.identityIssuer === after.identityIssuer)) continue;
    changes.push({
      instanceName: after.name,
      previous: vouching(old),
      current: vouching(after),
      message: `OAuth2 instance ${JSON.stringify(after.name)} now uses ${describe(after)} instead of ${describe(old)}: identities bound through it before no longer sign in (their owners sign in another way and bind again)`,
    });
  }
  return changes;
}

/** The issuer changes among applied settings changes: empty unless `oauth2.providers` was written. */
export function issuerChangesOf(changes: ReadonlyArray<{ key: string; oldValue: unknown; newValue: unknown }>): IssuerChange[] {
  const write = changes.find((change) => change.key === 'oauth2.providers');
  if (!write) return [];
  return issuerChanges(write.oldValue as OAuth2ProviderSettings[], write.newValue as OAuth2ProviderSettings[]);
}

function vouching(instance: OAuth2Instance): IssuerChange['current'] {
  return { provider: instance.kind, issuer: instance.identityIssuer };
}

function describe(instance: OAuth2Instance): string {
  return `${instance.kind} issuer ${instance.identityIssuer}`;
}
