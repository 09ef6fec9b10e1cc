/**
 * A chat message's text as elements (never HTML): mentions of members as chips, http(s) links
 * as anchors that open apart from the room and pass nothing back to it (web/src/chat/linkify.ts
 * decides what is a link), the room's emotes (`:name:`) as their pictures, everything else as
 * text.
 */
import type { JSX } from 'preact';
import { findMentions, type MentionCandidate } from '../../../../../contracts/room/mentions.js';
import { EMOTE_IN_TEXT } from '../../../../../contracts/room/emotes.js';
import { linkify } from '../../../chat/linkify.js';
import type { Emote } from '../../../state/room-emotes.js';

type Emotes = ReadonlyMap<string, Emote>;

/** Known `:name:`s as pictures; unknown ones stay the text they are. */
function withEmotes(text: string, key: string, emotes: Emotes): Array<JSX.Element | string> {
  if (emotes.size === 0) return [text];
  const out: Array<JSX.Element | string> = [];
  let at = 0;
  for (const match of text.matchAll(EMOTE_IN_TEXT)) {
    const emote = emotes.get(match[1] as string);
    if (!emote) continue;
    const start = match.index ?? 0;
    if (start > at) out.push(text.slice(at, start));
    out.push(<img key={`${key}-e${start}`} class="emote" src={emote.url} alt={match[0]} title={match[0]} width={emote.width} height={emote.height} loading="lazy" />);
    at = start + match[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function withLinks(text: string, key: string, emotes: Emotes): Array<JSX.Element | string> {
  return linkify(text).flatMap((piece, i) =>
    piece.kind === 'link' ? (
      <a key={`${key}-${i}`} class="chat-link" href={piece.href} target="_blank" rel="noopener noreferrer nofollow ugc" title={piece.text}>
        {piece.text}
      </a>
    ) : (
      withEmotes(piece.text, `${key}-${i}`, emotes)
    ),
  );
}

/** `mentioned`: the members the room resolved the message's mentions to, with their names as shown. */
export function ChatText(props: { text: string; mentioned: MentionCandidate[]; me: string | undefined; emotes: Emotes }) {
  const { text, emotes } = props;
  const out: Array<JSX.Element | string> = [];
  let at = 0;
  for (const span of findMentions(text, props.mentioned)) {
    out.push(...withLinks(text.slice(at, span.start), `t${at}`, emotes));
    out.push(
      <span key={`m${span.start}`} class={span.id === props.me ? 'mention-chip is-me' : 'mention-chip'}>
        {text.slice(span.start, span.end)}
      </span>,
    );
    at = span.end;
  }
  out.push(...withLinks(text.slice(at), `t${at}`, emotes));
  return <>{out}</>;
}
