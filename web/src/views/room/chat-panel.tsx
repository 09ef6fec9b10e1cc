/**
 * Chat: history (oldest first, "load older" pages back), sending, replying (the quote above the
 * reply, a click goes to the original), editing and deleting one's own within the room's window
 * (any message with `delete_chat`), mentions (chat/chat-composer.tsx offers members, in a crowd
 * those found by name on the server too; a message mentioning me is highlighted), links (chat/chat-text.tsx), pinning with `pin_chat`, reactions
 * (reactions/reaction-chips.tsx), and the pinned list. Messages from others are
 * announced politely by `ChatAnnouncer`, which lives outside the tab panels so it speaks even
 * while the chat tab is hidden.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { ChatMessage } from '../../state/room-view.js';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { Avatar } from '../../ui/avatar.js';
import { ReactionChips } from './reactions/reaction-chips.js';
import { SlowModeNote, isSlowModeRefusal, waitOf } from './moderation/slow-mode-note.js';
import { ROOM_LIMITS } from '../../../../contracts/room/limits.js';
import type { MentionCandidate } from '../../../../contracts/room/mentions.js';
import { ChatComposer } from './chat/chat-composer.js';
import { ChatText } from './chat/chat-text.js';
import { MessageEditor } from './chat/message-editor.js';
import type { Emote } from '../../state/room-emotes.js';
import type { SearchMembers } from '../../state/mention-search.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/i18n.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';

const time = (at: number) => formatDateTime(new Date(at), { hour: '2-digit', minute: '2-digit' });

export function ChatPanel(props: { session: RoomSession }) {
  const t = useT();
  const { session } = props;
  const me = session.view.value?.me.userId;
  const messages = session.chat.value;
  const emotes = session.emotes.byName.value;
  const pins = session.pins.value;
  const action = useAction();
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const canDeleteAny = session.can('delete_chat');
  const canPin = session.can('pin_chat');
  const canSend = session.can('send_chat');
  const members: MentionCandidate[] = (session.view.value?.members ?? []).map((member) => ({ id: member.userId, name: member.name }));
  const others = members.filter((member) => member.id !== me);
  const crowd = session.view.value?.headcount.crowd === true;
  const search = useMemo(() => (crowd ? searchMembers(session.roomId, me) : undefined), [crowd, session.roomId, me]);
  // The room decides; this only hides buttons that would be refused (the server's clock rules).
  const ownAndRecent = (message: ChatMessage) => message.userId === me && Date.now() - message.createdAt < ROOM_LIMITS.chatEditWindowMs;

  // Slow mode paces everyone but the chat's moderators (holders of delete_chat), as the room does.
  const slowModeSeconds = canDeleteAny ? 0 : (session.view.value?.room.slowModeSeconds ?? 0);
  const [sendAgainAt, setSendAgainAt] = useState(0);

  const send = async (text: string) => {
    let refusal: unknown;
    const ok = await action.run(() =>
      session.send({ kind: 'chat.send', text, clientMessageId: crypto.randomUUID(), ...(replyTo ? { replyTo: replyTo.id } : {}) }).catch((caught: unknown) => {
        refusal = caught;
        throw caught;
      }),
    );
    if (ok) {
      setReplyTo(null);
      if (slowModeSeconds > 0) setSendAgainAt(Date.now() + slowModeSeconds * 1000);
    } else {
      const wait = waitOf(refusal);
      if (wait !== undefined) setSendAgainAt(Date.now() + wait);
    }
    return ok;
  };

  const saveEdit = async (message: ChatMessage, text: string) => {
    const ok = await action.run(() => session.send({ kind: 'chat.edit', messageId: message.id, text }));
    if (ok) setEditing(null);
  };

  const tools = (message: ChatMessage) => (
    <span class="chat-tools">
      {canSend && (
        <button type="button" class="button-quiet" onClick={() => { setReplyTo(message); document.getElementById('chat-input')?.focus(); }}>
          {t('chat.tools.reply')}
          <span class="visually-hidden">{t('chat.tools.replyHidden', { name: message.name })}</span>
        </button>
      )}
      {canSend && ownAndRecent(message) && (
        <button type="button" class="button-quiet" onClick={() => setEditing(message.id)}>
          {t('chat.tools.edit')}
          <span class="visually-hidden">{t('chat.tools.editHidden')}</span>
        </button>
      )}
      {canPin && (
        <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: message.pinned ? 'chat.unpin' : 'chat.pin', messageId: message.id }))}>
          {message.pinned ? t('chat.tools.unpin') : t('chat.tools.pin')}
          <span class="visually-hidden">{t('chat.tools.messageFrom', { name: message.name })}</span>
        </button>
      )}
      {(ownAndRecent(message) || canDeleteAny) && (
        <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'chat.delete', messageId: message.id }))}>
          {t('chat.tools.delete')}
          <span class="visually-hidden">{t('chat.tools.messageFrom', { name: message.name })}</span>
        </button>
      )}
    </span>
  );

  return (
    <section aria-labelledby="chat-heading" class="chat">
      <h2 id="chat-heading">{t('chat.heading')}</h2>
      <ErrorNotice error={action.error} onDismiss={action.clear} title={isSlowModeRefusal(action.error) ? t('chat.slowMode.refused') : undefined} />
      {pins.length > 0 && (
        <section aria-labelledby="pins-heading" class="pins">
          <h3 id="pins-heading">{t('chat.pinned')}</h3>
          <ul class="chat-list">
            {pins.map((message) => (
              <li key={message.id} class="chat-message">
                <Avatar userId={message.userId} name={message.name} /> <span class="chat-author">{message.name}</span> <span class="chat-text">{message.text}</span>
                {canPin && (
                  <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'chat.unpin', messageId: message.id }))}>
                    {t('chat.tools.unpin')}
                    <span class="visually-hidden">{t('chat.tools.pinnedMessageFrom', { name: message.name })}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {session.moreChat.value && (
        <button type="button" onClick={() => void action.run(() => session.loadOlderChat())}>
          {t('chat.loadOlder')}
        </button>
      )}
      {session.can('view_chat_history') || messages.length > 0 ? (
        <MessageList
          messages={messages}
          me={me}
          members={members}
          emotes={emotes}
          tools={tools}
          editing={editing}
          editor={(message) => <MessageEditor text={message.text} busy={action.busy} onSave={(text) => void saveEdit(message, text)} onCancel={() => setEditing(null)} />}
          reactions={(message) => <ReactionChips session={session} message={message} run={action.run} />}
        />
      ) : (
        <p class="muted">{t('chat.noHistory')}</p>
      )}
      {canSend && slowModeSeconds > 0 && <SlowModeNote seconds={slowModeSeconds} until={sendAgainAt} />}
      {canSend ? (
        <ChatComposer members={others} search={search} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} busy={action.busy} onSend={send} emotes={[...emotes.values()]} />
      ) : (
        <p class="muted">{session.view.value?.me.role === 'guest' ? t('chat.guestsRead') : t('chat.cannotSend')}</p>
      )}
    </section>
  );
}

/** The line above a reply: who said what it answers; a click goes to the original when it is loaded. */
function Quote(props: { reply: NonNullable<ChatMessage['replyTo']> }) {
  const t = useT();
  const { reply } = props;
  if (reply.deleted) return <p class="chat-quote is-deleted">{t('chat.quote.deleted')}</p>;
  const go = () => {
    const original = document.getElementById(`chat-message-${reply.id}`);
    original?.scrollIntoView({ block: 'center' });
    original?.focus();
  };
  return (
    <button type="button" class="chat-quote" onClick={go}>
      <span class="visually-hidden">{t('chat.quote.replyTo')}</span>
      <Rich k="chat.quote.line" parts={{ name: <strong>{reply.name}</strong> }} values={{ excerpt: reply.excerpt }} />
    </button>
  );
}

function MessageList(props: {
  messages: ChatMessage[];
  me: string | undefined;
  members: MentionCandidate[];
  emotes: ReadonlyMap<string, Emote>;
  editing: string | null;
  tools: (message: ChatMessage) => preact.JSX.Element;
  editor: (message: ChatMessage) => preact.JSX.Element;
  reactions: (message: ChatMessage) => preact.JSX.Element;
}) {
  const t = useT();
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
  if (props.messages.length === 0) return <p class="muted">{t('chat.noMessages')}</p>;
  return (
    <ol class="chat-list chat-log" ref={list} tabIndex={0} aria-label={t('chat.messages')}>
      {props.messages.map((message) => {
        // An older actor host mid-upgrade may send a message without mentions.
        const mentions = message.mentions ?? [];
        const mentioned = props.members.filter((member) => mentions.includes(member.id));
        const forMe = props.me !== undefined && mentions.includes(props.me);
        return (
          <li key={message.id} id={`chat-message-${message.id}`} tabIndex={-1} class={forMe ? 'chat-message is-mentioned' : 'chat-message'}>
            {message.replyTo && <Quote reply={message.replyTo} />}
            <Avatar userId={message.userId} name={message.name} /> <span class="chat-author">{message.name}</span> <time class="muted">{time(message.createdAt)}</time>
            {message.editedAt !== undefined && <span class="muted chat-edited">{t('chat.edited')}</span>}
            {message.pinned && <span class="badge">{t('chat.pinned')}</span>}
            {forMe && <span class="visually-hidden">{t('chat.mentionsYou')}</span>}
            {props.editing === message.id ? (
              props.editor(message)
            ) : (
              <p class="chat-text">
                <ChatText text={message.text} mentioned={mentioned} me={props.me} emotes={props.emotes} />
              </p>
            )}
            {props.tools(message)}
            {props.reactions(message)}
          </li>
        );
      })}
    </ol>
  );
}

/** Speaks messages from others as they arrive (not the history, not one's own). */
export function ChatAnnouncer(props: { session: RoomSession }) {
  const [said, setSaid] = useState('');
  useEffect(
    () =>
      props.session.onEvent((event) => {
        if (event.type === 'chat.message' && event.message.userId !== props.session.view.value?.me.userId) setSaid(t('chat.announce', { name: event.message.name, text: event.message.text }));
      }),
    [props.session],
  );
  return (
    <p class="visually-hidden" aria-live="polite">
      {said}
    </p>
  );
}

/** A crowd's members whose name contains `text`, but me: the candidates its composer adds to the named ones. */
function searchMembers(roomId: string, me: string | undefined): SearchMembers {
  return async (text) => {
    const page = await call(api.GET('/api/rooms/{roomId}/members', { params: { path: { roomId }, query: { q: text, limit: MENTION_SEARCH_LIMIT } } }));
    return page.members.filter((member) => member.userId !== me).map((member) => ({ id: member.userId, name: member.name }));
  };
}

/** Members asked for per search: the server matches anywhere in a name, the composer offers those starting with the text. */
const MENTION_SEARCH_LIMIT = 100;
