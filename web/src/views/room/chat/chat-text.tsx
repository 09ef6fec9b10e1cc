/**
 * A chat message's text as elements (never HTML): mentions of members as chips, http(s) links
 * as anchors that open apart from the room and pass nothing back to it (web/src/chat/linkify.ts
 * decides what is a link), everything else as text.
 */
import type { JSX } from 'preact';
import { findMentions, type MentionCandidate } from '../../../../../contracts/room/mentions.js';
import { linkify } from '../../../chat/linkify.js';

function withLinks(text: string, key: string): Array<JSX.Element | string> {
  return linkify(text).map((piece, i) =>
    piece.kind === 'link' ? (
      <a key={`${key}-${i}`} class="chat-link" href={piece.href} target="_blank" rel="noopener noreferrer nofollow ugc" title={piece.text}>
        {piece.text}
      </a>
    ) : (
      piece.text
    ),
  );
}

/** `mentioned`: the members the room resolved the message's mentions to, with their names as shown. */
export function ChatText(props: { text: string; mentioned: MentionCandidate[]; me: string | undefined }) {
  const { text } = props;
  const out: Array<JSX.Element | string> = [];
  let at = 0;
  for (const span of findMentions(text, props.mentioned)) {
    out.push(...withLinks(text.slice(at, span.start), `t${at}`));
    out.push(
      <span key={`m${span.start}`} class={span.id === props.me ? 'mention-chip is-me' : 'mention-chip'}>
        {text.slice(span.start, span.end)}
      </span>,
    );
    at = span.end;
  }
  out.push(...withLinks(text.slice(at), `t${at}`));
  return <>{out}</>;
}
