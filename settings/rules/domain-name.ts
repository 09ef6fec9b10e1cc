/**
 * DNS host names as operators write them in settings (RFC 1123 labels): letters, digits and
 * hyphens, no hyphen at either end of a label, labels of 1..=63 and a name of at most 253
 * characters. Internationalised names are written in their ASCII (punycode) form.
 */
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_NAME_LENGTH = 253;

export interface DomainNameOptions {
  /** Whether a single label such as `localhost` is acceptable. */
  readonly requireDot: boolean;
}

/** Answers why `text` is not a domain name, or null when it is one. */
export function domainNameProblem(text: string, options: DomainNameOptions): string | null {
  if (text.length === 0) return 'is empty';
  if (text.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  const labels = text.split('.');
  if (options.requireDot && labels.length < 2) return 'must contain at least one dot';
  for (const label of labels) {
    if (label.length === 0) return 'has an empty label (two dots in a row, or a dot at an end)';
    if (label.length > 63) return `has a label longer than 63 characters`;
    if (!LABEL.test(label)) {
      return `has label ${JSON.stringify(label)}; labels may contain only letters, digits and "-", and may not start or end with "-"`;
    }
  }
  // An all-numeric last label makes the name read as an IPv4 address, which it is not.
  if (labels.length > 1 && /^[0-9]+$/.test(labels[labels.length - 1] ?? '')) {
    return 'has an all-numeric top-level label';
  }
  return null;
}
