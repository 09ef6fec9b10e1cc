/**
 * Connecting a media library: its kind (from the server's list), a name, the server URL, a user
 * name and a password or token, and whose it is: the member's own (usable by them in any room;
 * accounts only) or the room's (edit_room_settings). The server lists the library before it
 * stores anything and names the field to fix (`secret`, `username`, `url`).
 */
import { useState } from 'preact/hooks';
import { issueFor } from '../../../api/errors.js';
import { connectLibrary, type Library, type LibraryKind } from '../../../state/libraries.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Field, SubmitButton } from '../../../ui/field.js';
import { useAction } from '../../../ui/use-action.js';

const URL_HINTS: Record<string, string> = {
  webdav: 'The WebDAV folder, e.g. https://cloud.example.com/remote.php/dav/files/me/',
  alist: 'The Alist or OpenList site, e.g. https://alist.example.com',
};

export function ConnectLibraryForm(props: { roomId: string; kinds: LibraryKind[]; canPersonal: boolean; canRoom: boolean; onConnected: (library: Library) => void; onCancel: () => void }) {
  const [kind, setKind] = useState(props.kinds[0]?.kind ?? 'webdav');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [forRoom, setForRoom] = useState(!props.canPersonal);
  const action = useAction();
  const issue = (key: string) => issueFor(action.error, key);

  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const library = await connectLibrary(props.roomId, { kind, name, url, username, secret }, forRoom);
      setSecret('');
      props.onConnected(library);
    });
  };

  return (
    <form class="form library-connect" onSubmit={(event) => void submit(event)} aria-labelledby="library-connect-heading">
      <h4 id="library-connect-heading">Connect a library</h4>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <div class="field">
        <label for="library-kind">Kind</label>
        <select id="library-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value)}>
          {props.kinds.map((candidate) => (
            <option key={candidate.kind} value={candidate.kind}>
              {candidate.label}
            </option>
          ))}
        </select>
      </div>
      <Field label="Name" required value={name} onValue={setName} maxLength={80} error={issue('name')} placeholder="Home NAS" />
      <Field label="Server URL" type="url" required value={url} onValue={setUrl} error={issue('url')} hint={URL_HINTS[kind]} placeholder="https://…" />
      <Field label="User name" value={username} onValue={setUsername} autocomplete="off" error={issue('username')} hint="Leave empty for a token alone" />
      <Field label="Password or token" type="password" value={secret} onValue={setSecret} autocomplete="new-password" error={issue('secret')} hint="Stored encrypted; never shown again" />
      {props.canPersonal && props.canRoom && (
        <fieldset class="library-owner">
          <legend>Who can use it</legend>
          <label class="check">
            <input type="radio" name="library-owner" checked={!forRoom} onChange={() => setForRoom(false)} /> Only me, in any room
          </label>
          <label class="check">
            <input type="radio" name="library-owner" checked={forRoom} onChange={() => setForRoom(true)} /> Everyone in this room who may add media
          </label>
        </fieldset>
      )}
      <div class="library-actions">
        <SubmitButton busy={action.busy}>Connect</SubmitButton>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
