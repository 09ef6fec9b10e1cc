/**
 * What the composer offers after an `@`: the members whose shown name starts with what follows
 * it, up to the caret. Pure, so the rule is the same wherever a composer needs it.
 */
import type { MentionCandidate } from '../../../../../contracts/room/mentions.js';

const MAX_SHOWN = 6;
/** An `@` at the start or after a space or punctuation, then up to 32 characters of a name. */
const TYPING = /(?:^|[^\p{L}\p{N}_])@([^@\n]{0,32})$/u;

export interface MentionQuery {
  /** Index of the `@`. */
  start: number;
  prefix: string;
}

export function mentionQuery(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const match = TYPING.exec(before);
  if (!match) return undefined;
  const prefix = match[1] ?? '';
  return { start: caret - prefix.length - 1, prefix };
}

export function suggestions(query: MentionQuery, members: readonly MentionCandidate[]): MentionCandidate[] {
  const prefix = query.prefix.toLocaleLowerCase();
  return members.filter((member) => member.name.toLocaleLowerCase().startsWith(prefix)).slice(0, MAX_SHOWN);
}

/** The text with the query replaced by `@name ` and where the caret goes after it. */
export function insertMention(text: string, caret: number, query: MentionQuery, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, query.start) + inserted + text.slice(caret), caret: query.start + inserted.length };
}
