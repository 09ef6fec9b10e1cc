/**
 * Connecting a media library: its kind (from the server's list), a name, the server URL, a user
 * name and a password or token, and whose it is: the member's own (usable by them in any room;
 * accounts only) or the room's (edit_room_settings); for Jellyfin and Emby, who converts what
 * browsers cannot play (./transcoder-choice.tsx). The server lists the library before it
 * stores anything and names the field to fix (`secret`, `username`, `url`, `transcoder`).
 */
import { useState } from 'preact/hooks';
import { issueFor } from '../../../api/errors.js';
import { connectLibrary, type Library, type LibraryKind, type LibraryTranscoder } from '../../../state/libraries.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Field, SubmitButton } from '../../../ui/field.js';
import { useAction } from '../../../ui/use-action.js';
import { useT } from '../../../i18n/use-t.js';
import { libraryKindLabel } from '../../../i18n/server-labels.js';
import { SELF_CONVERTING_KINDS, TranscoderChoice } from './transcoder-choice.js';

/** The hint under the server URL for each kind, with an example address. */
const URL_HINTS = {
  webdav: { key: 'playlist.library.connect.urlHintWebdav', example: 'https://cloud.example.com/remote.php/dav/files/me/' },
  alist: { key: 'playlist.library.connect.urlHintAlist', example: 'https://alist.example.com' },
} as const;
const URL_EXAMPLE = 'https://…';

export function ConnectLibraryForm(props: { roomId: string; kinds: LibraryKind[]; canPersonal: boolean; canRoom: boolean; onConnected: (library: Library) => void; onCancel: () => void }) {
  const t = useT();
  const [kind, setKind] = useState(props.kinds[0]?.kind ?? 'webdav');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [forRoom, setForRoom] = useState(!props.canPersonal);
  const [transcoder, setTranscoder] = useState<LibraryTranscoder>('svc');
  const converts = SELF_CONVERTING_KINDS.includes(kind);
  const action = useAction();
  const issue = (key: string) => issueFor(action.error, key);
  const urlHint = URL_HINTS[kind as keyof typeof URL_HINTS] as (typeof URL_HINTS)[keyof typeof URL_HINTS] | undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const library = await connectLibrary(props.roomId, { kind, name, url, username, secret, transcoder: converts ? transcoder : 'svc' }, forRoom);
      setSecret('');
      props.onConnected(library);
    });
  };

  return (
    <form class="form library-connect" onSubmit={(event) => void submit(event)} aria-labelledby="library-connect-heading">
      <h4 id="library-connect-heading">{t('playlist.library.connect.heading')}</h4>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <div class="field">
        <label for="library-kind">{t('playlist.library.connect.kind')}</label>
        <select id="library-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value)}>
          {props.kinds.map((candidate) => (
            <option key={candidate.kind} value={candidate.kind}>
              {libraryKindLabel(candidate)}
            </option>
          ))}
        </select>
      </div>
      <Field label={t('playlist.library.connect.name')} required value={name} onValue={setName} maxLength={80} error={issue('name')} placeholder={t('playlist.library.connect.namePlaceholder')} />
      <Field
        label={t('playlist.library.connect.url')}
        type="url"
        required
        value={url}
        onValue={setUrl}
        error={issue('url')}
        hint={urlHint && t(urlHint.key, { example: urlHint.example })}
        placeholder={URL_EXAMPLE}
      />
      <Field label={t('playlist.library.connect.username')} value={username} onValue={setUsername} autocomplete="off" error={issue('username')} hint={t('playlist.library.connect.usernameHint')} />
      <Field label={t('playlist.library.connect.secret')} type="password" value={secret} onValue={setSecret} autocomplete="new-password" error={issue('secret')} hint={t('playlist.library.connect.secretHint')} />
      {converts && <TranscoderChoice name="library-transcoder" value={transcoder} onValue={setTranscoder} error={issue('transcoder')} />}
      {props.canPersonal && props.canRoom && (
        <fieldset class="library-owner">
          <legend>{t('playlist.library.connect.owner')}</legend>
          <label class="check">
            <input type="radio" name="library-owner" checked={!forRoom} onChange={() => setForRoom(false)} /> {t('playlist.library.connect.ownerMe')}
          </label>
          <label class="check">
            <input type="radio" name="library-owner" checked={forRoom} onChange={() => setForRoom(true)} /> {t('playlist.library.connect.ownerRoom')}
          </label>
        </fieldset>
      )}
      <div class="library-actions">
        <SubmitButton busy={action.busy}>{t('playlist.library.connect.submit')}</SubmitButton>
        <button type="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
