/**
 * Names the server sends with its built-in parts (media providers, library kinds) in the page's
 * language; a name the catalogue does not know shows the server's own label.
 */
import { wordsOr } from './words-or.js';

export function providerLabel(provider: { name: string; label: string }): string {
  return wordsOr(['playlist', 'providerNames', provider.name], provider.label);
}

export function libraryKindLabel(kind: { kind: string; label: string }): string {
  return wordsOr(['playlist', 'libraryKinds', kind.kind], kind.label);
}
