/**
 * "From a library" in the add-media dialog: pick one of the libraries usable in this room (the
 * room's and the member's own), or connect one, then browse it (library-browser.tsx). Closed
 * until asked for, so the room page lists nothing from library servers on its own.
 */
import { useEffect, useState } from 'preact/hooks';
import { session as signedIn } from '../../../state/session.js';
import type { RoomSession } from '../../../state/room.js';
import { removeLibrary, setLibraryTranscoder, usableLibraries, type Library, type LibraryKind } from '../../../state/libraries.js';
import { SELF_CONVERTING_KINDS, TranscoderChoice } from './transcoder-choice.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { useAction } from '../../../ui/use-action.js';
import { ConnectLibraryForm } from './connect-library-form.js';
import { LibraryBrowser } from './library-browser.js';
import { Rich } from '../../../i18n/rich.js';
import { useT } from '../../../i18n/use-t.js';
import './library.css';

export function LibrarySource(props: { session: RoomSession }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" class="library-open" aria-expanded="false" onClick={() => setOpen(true)}>
        {t('playlist.library.open')}
      </button>
    );
  }
  return (
    <section class="library-source" aria-labelledby="library-heading">
      <div class="library-head">
        <h3 id="library-heading">{t('playlist.library.heading')}</h3>
        <button type="button" class="button-quiet" aria-expanded="true" onClick={() => setOpen(false)}>
          <Rich k="playlist.library.close" parts={{ what: <span class="visually-hidden">{t('playlist.library.closeWhat')}</span> }} />
        </button>
      </div>
      <LibraryPicker session={props.session} />
    </section>
  );
}

function LibraryPicker(props: { session: RoomSession }) {
  const t = useT();
  const { roomId } = props.session;
  const [libraries, setLibraries] = useState<Library[] | null>(null);
  const [kinds, setKinds] = useState<LibraryKind[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [connecting, setConnecting] = useState(false);
  const load = useAction();
  const me = signedIn.value?.user?.id ?? null;
  const canRoom = props.session.can('edit_room_settings');

  const reload = (select?: string) =>
    load.run(async () => {
      const answer = await usableLibraries(roomId);
      setLibraries(answer.libraries);
      setKinds(answer.kinds);
      const next = select ?? chosen ?? answer.libraries[0]?.id ?? null;
      setChosen(answer.libraries.some((library) => library.id === next) ? next : (answer.libraries[0]?.id ?? null));
      if (answer.libraries.length === 0) setConnecting(me !== null || canRoom);
    });
  useEffect(() => {
    void reload();
  }, [roomId]);

  const library = libraries?.find((candidate) => candidate.id === chosen) ?? null;
  const removable = library !== null && ((library.owner.kind === 'user' && library.owner.userId === me) || (library.owner.kind === 'room' && canRoom));

  return (
    <div class="library-picker">
      <ErrorNotice error={load.error} onDismiss={load.clear} />
      {libraries && libraries.length > 0 && (
        <div class="library-choice">
          <div class="field">
            <label for="library-choice">{t('playlist.library.choice')}</label>
            <select id="library-choice" value={chosen ?? ''} onChange={(event) => setChosen(event.currentTarget.value)}>
              {libraries.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {t(candidate.owner.kind === 'room' ? 'playlist.library.roomOwned' : 'playlist.library.yours', { name: candidate.name })}
                </option>
              ))}
            </select>
          </div>
          <div class="library-actions">
            {!connecting && (me !== null || canRoom) && (
              <button type="button" class="button-quiet" onClick={() => setConnecting(true)}>
                {t('playlist.library.connectAnother')}
              </button>
            )}
            {removable && (
              <button type="button" class="button-quiet" onClick={() => void load.run(async () => {
                await removeLibrary(roomId, library.id);
                setChosen(null);
                await reload();
              })}>
                <Rich k="playlist.library.remove" parts={{ name: <span class="visually-hidden"> {library.name}</span> }} />
              </button>
            )}
          </div>
        </div>
      )}
      {library && removable && !connecting && SELF_CONVERTING_KINDS.includes(library.kind) && (
        <TranscoderChoice
          name={`library-transcoder-${library.id}`}
          value={library.transcoder}
          disabled={load.busy}
          onValue={(transcoder) => void load.run(async () => {
            await setLibraryTranscoder(roomId, library.id, transcoder);
            await reload(library.id);
          })}
        />
      )}
      {libraries && libraries.length === 0 && !connecting && <p class="muted">{t('playlist.library.noneHere')}</p>}
      {connecting && (
        <ConnectLibraryForm
          roomId={roomId}
          kinds={kinds}
          canPersonal={me !== null}
          canRoom={canRoom}
          onConnected={(connected) => {
            setConnecting(false);
            void reload(connected.id);
          }}
          onCancel={() => setConnecting(false)}
        />
      )}
      {library && !connecting && <LibraryBrowser key={library.id} roomId={roomId} library={library} />}
    </div>
  );
}
