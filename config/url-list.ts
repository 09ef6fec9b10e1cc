/**
 * Splits a comma-separated list of URLs such as `nats.url`. Only a comma followed by another
 * scheme separates entries, so a comma inside a password stays part of that URL.
 */
export function splitUrlList(text: string): string[] {
  return text
    .split(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)/i)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
