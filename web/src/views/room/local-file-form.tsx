/**
 * Adding a file on each viewer's own disk (the `local` provider): the member picks the file,
 * the page fingerprints it (web/src/player/local-file.ts: two MiB read, nothing uploaded) and
 * adds an item naming it by fingerprint, size and name; the title defaults to the file's name.
 * This page keeps the file, so when the item plays here it plays at once; every other viewer
 * picks their own copy in the player.
 */
import { useId, useState } from 'preact/hooks';
import { issueFor } from '../../api/errors.js';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { localFileUrl, type LocalFileRef } from '../../../../contracts/room/local-file.js';
import { ROOM_LIMITS } from '../../../../contracts/room/limits.js';
import type { MediaItem } from '../../../../contracts/room/model.js';
import { fingerprintOf, formatSize, rememberCopy } from '../../player/local-file.js';
import { useT } from '../../i18n/use-t.js';

interface Picked {
  file: File;
  ref: LocalFileRef;
}

export function LocalFileForm(props: { session: RoomSession }) {
  const t = useT();
  const id = useId();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const action = useAction();
  const fileIssue = readError ?? issueFor(action.error, 'url');

  const choose = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    setPicked(null);
    setReadError(null);
    setAdded(null);
    if (!file) return;
    setReading(true);
    try {
      const ref = { fingerprint: await fingerprintOf(file), size: file.size, name: file.name };
      setPicked({ file, ref });
      // The title follows the file until the member writes one of their own.
      if (!title.trim() || title === picked?.file.name) setTitle(file.name.slice(0, ROOM_LIMITS.titleMaxChars));
    } catch (error) {
      setReadError(error instanceof Error ? error.message : String(error));
    } finally {
      setReading(false);
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!picked) {
      setReadError(t('playlist.localFile.chooseFirst'));
      return;
    }
    // Before the item exists: it may become current at once, and this page must not ask for its own file.
    rememberCopy(picked.ref.fingerprint, picked.file);
    const ok = await action.run(async () => {
      const answer = await props.session.send<{ item: MediaItem }>({ kind: 'playlist.push', url: localFileUrl(picked.ref), title: title.trim(), provider: 'local' });
      setAdded(answer.item.title);
    });
    if (ok) {
      setPicked(null);
      setTitle('');
      (event.currentTarget as HTMLFormElement | null)?.reset();
    }
  };

  return (
    <form class="form add-media add-local" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t('playlist.localFile.heading')}</h3>
      <p class="muted">{t('playlist.localFile.intro')}</p>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {added && (
        <p role="status" class="muted">
          {t('playlist.localFile.added', { title: added })}
        </p>
      )}
      <div class="field">
        <label for={`${id}-file`}>{t('playlist.localFile.file')}</label>
        <input
          id={`${id}-file`}
          type="file"
          disabled={reading || action.busy}
          aria-invalid={fileIssue ? true : undefined}
          aria-describedby={fileIssue ? `${id}-file-error` : picked ? `${id}-file-hint` : undefined}
          onChange={(event) => void choose(event.currentTarget)}
        />
        {reading && (
          <p class="field-hint" role="status">
            {t('playlist.localFile.reading')}
          </p>
        )}
        {picked && !reading && (
          <p class="field-hint" id={`${id}-file-hint`}>
            {t('playlist.localFile.picked', { name: picked.file.name, size: formatSize(picked.file.size) })}
          </p>
        )}
        {fileIssue && (
          <p class="field-error" id={`${id}-file-error`}>
            {fileIssue}
          </p>
        )}
      </div>
      <Field label={t('playlist.localFile.title')} required value={title} onValue={setTitle} maxLength={ROOM_LIMITS.titleMaxChars} error={issueFor(action.error, 'title')} />
      <SubmitButton busy={action.busy || reading}>{t('playlist.localFile.submit')}</SubmitButton>
    </form>
  );
}
