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

export function EmoteManager(props: { session: RoomSession }) {
  const { session } = props;
  const roomId = session.roomId;
  const emotes = [...session.emotes.byName.value.values()];
  const action = useAction();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [status, setStatus] = useState('');
  const nameProblem = name !== '' && !EMOTE_NAME.test(name) ? '2 to 32 lower-case letters, digits or underscores' : undefined;

  const upload = (event: Event) => {
    event.preventDefault();
    if (!file || nameProblem || name === '') return;
    setStatus('');
    void action.run(async () => {
      await call(api.PUT('/api/rooms/{roomId}/emotes/{name}', { params: { path: { roomId, name } }, body: { content: base64Of(await file.arrayBuffer()) } }));
      await session.emotes.read();
      setStatus(`:${name}: saved.`);
      setName('');
    });
  };
  const remove = (emoteName: string) => {
    setStatus('');
    void action.run(async () => {
      await call(api.DELETE('/api/rooms/{roomId}/emotes/{name}', { params: { path: { roomId, name: emoteName } } }));
      await session.emotes.read();
      setStatus(`:${emoteName}: removed.`);
    });
  };

  return (
    <section aria-labelledby="emotes-heading" class="emote-manager">
      <h3 id="emotes-heading">Emotes</h3>
      <p class="hint muted">
        Pictures anyone here can write as :name: in the chat. PNG, GIF or WebP, at most {Math.round(EMOTE_LIMITS.maxBytes / 1024)} KiB; {emotes.length} of{' '}
        {EMOTE_LIMITS.perRoom} used.
      </p>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {status && (
        <p role="status" class="muted">
          {status}
        </p>
      )}
      {emotes.length > 0 && (
        <ul class="emote-list" aria-label="This room's emotes">
          {emotes.map((emote) => (
            <li key={emote.name}>
              <img class="emote" src={emote.url} alt="" width={emote.width} height={emote.height} /> <code>:{emote.name}:</code>
              <button type="button" class="button-quiet" onClick={() => remove(emote.name)}>
                Remove<span class="visually-hidden"> :{emote.name}:</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={upload} class="emote-upload">
        <Field label="Emote name" value={name} onValue={(value) => setName(value.trim().toLowerCase())} hint="Written :name: in the chat" error={nameProblem ?? issueFor(action.error, 'name')} maxLength={32} />
        <div class="field">
          <label for="emote-file">Picture</label>
          <input id="emote-file" type="file" accept="image/png,image/gif,image/webp" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
          {issueFor(action.error, 'content') && (
            <p class="field-error" role="alert">
              {issueFor(action.error, 'content')}
            </p>
          )}
        </div>
        <SubmitButton busy={action.busy}>
          Upload the emote
        </SubmitButton>
      </form>
    </section>
  );
}
