/**
 * The room's custom emotes for those who may change its settings (docs/2026-11-26-room-emotes.md):
 * the list with a remove button each, and an upload form (a name and a PNG, GIF or WebP). The
 * server re-encodes the picture, so what the list shows is what the chat shows.
 */
import { useState } from 'preact/hooks';
import { EMOTE_LIMITS, EMOTE_NAME } from '../../../../contracts/room/emotes.js';
import { api, call } from '../../api/client.js';
import { base64Of } from '../../api/base64.js';
import { issueFor } from '../../api/errors.js';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { formatNumber } from '../../i18n/format.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';

/** What the last change did, said in the page's language when shown. */
type Status = { done: 'saved' | 'removed'; name: string } | null;

export function EmoteManager(props: { session: RoomSession }) {
  const { session } = props;
  const t = useT();
  const roomId = session.roomId;
  const emotes = [...session.emotes.byName.value.values()];
  const action = useAction();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const nameProblem = name !== '' && !EMOTE_NAME.test(name) ? t('roomSettings.emotes.nameProblem') : undefined;

  const contentIssue = issueFor(action.error, 'content');

  const upload = (event: Event) => {
    event.preventDefault();
    if (!file || nameProblem || name === '') return;
    setStatus(null);
    void action.run(async () => {
      await call(api.PUT('/api/rooms/{roomId}/emotes/{name}', { params: { path: { roomId, name } }, body: { content: base64Of(await file.arrayBuffer()) } }));
      await session.emotes.read();
      setStatus({ done: 'saved', name });
      setName('');
    });
  };
  const remove = (emoteName: string) => {
    setStatus(null);
    void action.run(async () => {
      await call(api.DELETE('/api/rooms/{roomId}/emotes/{name}', { params: { path: { roomId, name: emoteName } } }));
      await session.emotes.read();
      setStatus({ done: 'removed', name: emoteName });
    });
  };

  return (
    <section aria-labelledby="emotes-heading" class="emote-manager">
      <h3 id="emotes-heading">{t('roomSettings.emotes.heading')}</h3>
      <p class="hint muted">
        {t('roomSettings.emotes.hint', { kib: formatNumber(Math.round(EMOTE_LIMITS.maxBytes / 1024)), used: formatNumber(emotes.length), max: formatNumber(EMOTE_LIMITS.perRoom) })}
      </p>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {status && (
        <p role="status" class="muted">
          {t(`roomSettings.emotes.${status.done}`, { name: status.name })}
        </p>
      )}
      {emotes.length > 0 && (
        <ul class="emote-list" aria-label={t('roomSettings.emotes.list')}>
          {emotes.map((emote) => (
            <li key={emote.name}>
              <img class="emote" src={emote.url} alt="" width={emote.width} height={emote.height} /> <code>:{emote.name}:</code>
              <button type="button" class="button-quiet" onClick={() => remove(emote.name)}>
                <Rich k="roomSettings.emotes.remove" parts={{ name: <span class="visually-hidden"> :{emote.name}:</span> }} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={upload} class="emote-upload">
        <Field label={t('roomSettings.emotes.name')} value={name} onValue={(value) => setName(value.trim().toLowerCase())} hint={t('roomSettings.emotes.nameHint')} error={nameProblem ?? issueFor(action.error, 'name')} maxLength={32} />
        <div class="field">
          <label for="emote-file">{t('roomSettings.emotes.picture')}</label>
          <input id="emote-file" type="file" accept="image/png,image/gif,image/webp" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
          {contentIssue && (
            <p class="field-error" role="alert">
              {contentIssue}
            </p>
          )}
        </div>
        <SubmitButton busy={action.busy}>
          {t('roomSettings.emotes.upload')}
        </SubmitButton>
      </form>
    </section>
  );
}
