/**
 * Names the server sends with its built-in parts (media providers, library kinds) in the page's
 * language. The server's list is open (an operator's build may add a provider): a name the
 * catalogue does not know shows the server's own label.
 */
import { en } from './catalogue/en/index.js';
import { t } from './i18n.js';

type ProviderName = keyof typeof en.playlist.providerNames;
type LibraryKind = keyof typeof en.playlist.libraryKinds;

export function providerLabel(provider: { name: string; label: string }): string {
  return Object.hasOwn(en.playlist.providerNames, provider.name) ? t(`playlist.providerNames.${provider.name as ProviderName}`) : provider.label;
}

export function libraryKindLabel(kind: { kind: string; label: string }): string {
  return Object.hasOwn(en.playlist.libraryKinds, kind.kind) ? t(`playlist.libraryKinds.${kind.kind as LibraryKind}`) : kind.label;
}
