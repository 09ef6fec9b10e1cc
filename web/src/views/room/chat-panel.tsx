/**
 * Chat: history (oldest first, "load older" pages back), sending, deleting (one's own, or any
 * with `delete_chat`), pinning with `pin_chat`, reactions (reactions/reaction-chips.tsx), and the pinned list. Messages from others are
 * announced politely by `ChatAnnouncer`, which lives outside the tab panels so it speaks even
 * while the chat tab is hidden.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChatMessage } from '../../state/room-view.js';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { Avatar } from '../../ui/avatar.js';
import { ReactionChips } from './reactions/reaction-chips.js';
import { SlowModeNote, waitOf } from './moderation/slow-mode-note.js';

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export function ChatPanel(props: { session: RoomSession }) {
  const { session } = props;
  const me = session.view.value?.me.userId;
  const messages = session.chat.value;
  const pins = session.pins.value;
  const action = useAction();
  const [text, setText] = useState('');
  const canDeleteAny = session.can('delete_chat');
  const canPin = session.can('pin_chat');

  // Slow mode paces everyone but the chat's moderators (holders of delete_chat), as the room does.
  const slowModeSeconds = canDeleteAny ? 0 : (session.view.value?.room.slowModeSeconds ?? 0);
  const [sendAgainAt, setSendAgainAt] = useState(0);

  const send = async (event: Event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    let refusal: unknown;
    const ok = await action.run(() =>
      session.send({ kind: 'chat.send', text: message, clientMessageId: crypto.randomUUID() }).catch((caught: unknown) => {
        refusal = caught;
        throw caught;
      }),
    );
    if (ok) {
      setText('');
      if (slowModeSeconds > 0) setSendAgainAt(Date.now() + slowModeSeconds * 1000);
    } else {
      const wait = waitOf(refusal);
      if (wait !== undefined) setSendAgainAt(Date.now() + wait);
    }
  };

  const tools = (message: ChatMessage) => (
    <span class="chat-tools">
      {canPin && (
        <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: message.pinned ? 'chat.unpin' : 'chat.pin', messageId: message.id }))}>
          {message.pinned ? 'Unpin' : 'Pin'}
          <span class="visually-hidden"> message from {message.name}</span>
        </button>
      )}
      {(message.userId === me || canDeleteAny) && (
        <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'chat.delete', messageId: message.id }))}>
          Delete<span class="visually-hidden"> message from {message.name}</span>
        </button>
      )}
    </span>
  );

  return (
    <section aria-labelledby="chat-heading" class="chat">
      <h2 id="chat-heading">Chat</h2>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {pins.length > 0 && (
        <section aria-labelledby="pins-heading" class="pins">
          <h3 id="pins-heading">Pinned</h3>
          <ul class="chat-list">
            {pins.map((message) => (
              <li key={message.id} class="chat-message">
                <Avatar userId={message.userId} name={message.name} /> <span class="chat-author">{message.name}</span> <span class="chat-text">{message.text}</span>
                {canPin && (
                  <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'chat.unpin', messageId: message.id }))}>
                    Unpin<span class="visually-hidden"> pinned message from {message.name}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {session.moreChat.value && (
        <button type="button" onClick={() => void action.run(() => session.loadOlderChat())}>
          Load older messages
        </button>
      )}
      {session.can('view_chat_history') || messages.length > 0 ? (
        <MessageList messages={messages} tools={tools} reactions={(message) => <ReactionChips session={session} message={message} run={action.run} />} />
      ) : (
        <p class="muted">You cannot see the chat history here; new messages appear as they arrive.</p>
      )}
      {session.can('send_chat') && slowModeSeconds > 0 && <SlowModeNote seconds={slowModeSeconds} until={sendAgainAt} />}
      {session.can('send_chat') ? (
        <form class="chat-form" onSubmit={(event) => void send(event)}>
          <label for="chat-input" class="visually-hidden">
            Message
          </label>
          <input id="chat-input" type="text" value={text} onInput={(event) => setText(event.currentTarget.value)} maxLength={2000} autocomplete="off" placeholder="Write a message" />
          <button type="submit" class="button-primary" disabled={action.busy}>
            Send
          </button>
        </form>
      ) : (
        <p class="muted">{session.view.value?.me.role === 'guest' ? 'Guests read the chat; sign in to write in it.' : 'You cannot send messages in this room.'}</p>
      )}
    </section>
  );
}

function MessageList(props: { messages: ChatMessage[]; tools: (message: ChatMessage) => preact.JSX.Element; reactions: (message: ChatMessage) => preact.JSX.Element }) {
  const list = useRef<HTMLOListElement>(null);
  const opened = useRef(false);
  const last = props.messages.at(-1)?.id;
  // Open at the newest message, then follow new ones, unless the reader scrolled up to read older ones.
  useEffect(() => {
    const element = list.current;
    if (!element) return;
    if (!opened.current || element.scrollHeight - element.scrollTop - element.clientHeight < 120) element.scrollTop = element.scrollHeight;
    opened.current = true;
  }, [last]);
  if (props.messages.length === 0) return <p class="muted">No messages yet.</p>;
  return (
    <ol class="chat-list chat-log" ref={list} tabIndex={0} aria-label="Messages">
      {props.messages.map((message) => (
        <li key={message.id} class="chat-message">
          <Avatar userId={message.userId} name={message.name} /> <span class="chat-author">{message.name}</span> <time class="muted">{time(message.createdAt)}</time>
          {message.pinned && <span class="badge">Pinned</span>}
          <p class="chat-text">{message.text}</p>
          {props.tools(message)}
          {props.reactions(message)}
        </li>
      ))}
    </ol>
  );
}

/** Speaks messages from others as they arrive (not the history, not one's own). */
export function ChatAnnouncer(props: { session: RoomSession }) {
  const [said, setSaid] = useState('');
  useEffect(
    () =>
      props.session.onEvent((event) => {
        if (event.type === 'chat.message' && event.message.userId !== props.session.view.value?.me.userId) setSaid(`${event.message.name}: ${event.message.text}`);
      }),
    [props.session],
  );
  return (
    <p class="visually-hidden" aria-live="polite">
      {said}
    </p>
  );
}
