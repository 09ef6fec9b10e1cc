/**
 * Adding one item to the playlist: URL and title, the provider (from the server's list) and
 * whether it plays through the server's media proxy, and optionally request headers
 * (name/value rows) and subtitle tracks. The proxy switch follows the provider's policy: fixed
 * on when the provider needs the proxy, absent when it never uses it, and off when the
 * operator turned proxying off. The room checks the content and names the bad field.
 */
import { useState } from 'preact/hooks';
import { issueFor } from '../../api/errors.js';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { useMediaProviders } from '../../state/media-providers.js';
import type { MediaItem } from '../../../../contracts/room/model.js';
import { SeekableNote } from './seekable-note.js';
import { ReachNote } from './reach-note.js';
import { playlistOnly, playlistVideos } from '../../player/players/youtube-playlist.js';
import { LibrarySource } from './library/library-source.js';
import { SubtitleFields, subtitleTracks, type SubtitleRow } from './subtitle-fields.js';
import { LocalFileForm } from './local-file-form.js';
import { useT } from '../../i18n/use-t.js';
import { providerLabel } from '../../i18n/server-labels.js';
import { useSharedLink } from '../../pwa/shared-link.js';

/** The shape of a media URL, shown in the empty field. */
const URL_EXAMPLE = 'https://…';

interface HeaderRow {
  name: string;
  value: string;
}

export function AddMediaForm(props: { session: RoomSession }) {
  const t = useT();
  // A link shared to the installed app ("Share → svc") arrives filled in (web/src/pwa/share-target.tsx).
  const shared = useSharedLink(props.session.roomId);
  const [url, setUrl] = useState(shared.url);
  const [title, setTitle] = useState(shared.title);
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [subtitles, setSubtitles] = useState<SubtitleRow[]>([]);
  const [providerName, setProviderName] = useState('direct');
  const [proxyChosen, setProxyChosen] = useState(false);
  const media = useMediaProviders();
  const provider = media?.providers.find((candidate) => candidate.name === providerName);
  const proxySwitchOn = provider?.live ? media?.liveProxy : media?.movieProxy;
  // What is sent: the policy decides for `required` and `never`; the member only for `optional`.
  const proxy = provider?.proxy === 'required' ? true : provider?.proxy === 'optional' ? proxyChosen && proxySwitchOn === true : false;
  const action = useAction();
  // The item just added: its seek check (and how it reaches browsers) answers a moment later, in the room's view.
  const [added, setAdded] = useState<MediaItem | null>(null);
  const addedNow = added && (props.session.view.value?.playlist?.find((item) => item.id === added.id) ?? added);
  const issue = (key: string) => issueFor(action.error, key);

  const submit = async (event: Event) => {
    event.preventDefault();
    const headerEntries = headers.filter((row) => row.name.trim()).map((row) => [row.name.trim(), row.value] as const);
    const tracks = subtitleTracks(subtitles);
    setAdded(null);
    const list = providerName === 'youtube' ? playlistOnly(url.trim()) : null;
    const youtube = media?.providers.find((candidate) => candidate.name === 'youtube')?.embed;
    const ok = await action.run(async () => {
      if (list !== null && youtube) {
        // One item per video: YouTube's player lists the playlist (youtube-playlist.ts).
        const videos = await playlistVideos(youtube, list);
        for (const [index, id] of videos.entries()) {
          await props.session.send({ kind: 'playlist.push', url: `https://www.youtube.com/watch?v=${id}`, title: `${title.trim()} (${index + 1}/${videos.length})`, provider: 'youtube' });
        }
        return;
      }
      const answer = await props.session.send<{ item: MediaItem }>({
        kind: 'playlist.push',
        url: url.trim(),
        title: title.trim(),
        ...(media ? { provider: providerName } : {}),
        ...(proxy ? { proxy: true } : {}),
        ...(headerEntries.length ? { headers: Object.fromEntries(headerEntries) } : {}),
        ...(tracks.length ? { subtitles: tracks } : {}),
      });
      setAdded(answer.item);
    });
    if (ok) {
      setUrl('');
      setTitle('');
      setHeaders([]);
      setSubtitles([]);
    }
  };

  // The issues shown in the form's own markup (a Field shows its own).
  const providerIssue = issue('provider');
  const headersIssue = issue('headers');
  const setHeader = (index: number, change: Partial<HeaderRow>) => setHeaders(headers.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <>
    <form ref={shared.formRef} class="form add-media" onSubmit={(event) => void submit(event)} aria-labelledby="add-media-heading">
      <h3 id="add-media-heading">{t('playlist.add.heading')}</h3>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {addedNow && <SeekableNote item={addedNow} where="form" />}
      {addedNow && <ReachNote reach={addedNow.reach ?? null} where="form" />}
      <Field label={t('playlist.add.url')} type="url" required value={url} onValue={setUrl} error={issue('url')} placeholder={URL_EXAMPLE} />
      <Field label={t('playlist.add.title')} required value={title} onValue={setTitle} maxLength={200} error={issue('title')} />
      {media && (
        <div class="field">
          <label for="add-media-provider">{t('playlist.add.provider')}</label>
          <select id="add-media-provider" value={providerName} onChange={(event) => setProviderName(event.currentTarget.value)} aria-invalid={providerIssue ? true : undefined}>
            {media.providers.filter((candidate) => candidate.name !== 'library' && candidate.name !== 'local').map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {providerLabel(candidate)}
              </option>
            ))}
          </select>
          {providerIssue && <p class="field-error">{providerIssue}</p>}
        </div>
      )}
      {provider && provider.proxy !== 'never' && (
        <label class="check">
          <input
            type="checkbox"
            checked={proxy}
            disabled={provider.proxy === 'required' || proxySwitchOn !== true}
            onChange={(event) => setProxyChosen(event.currentTarget.checked)}
          />{' '}
          {t('playlist.add.proxy')}
          {provider.proxy === 'required' && <span class="muted">{t('playlist.add.proxyRequired')}</span>}
          {proxySwitchOn !== true && <span class="muted">{t('playlist.add.proxyOff')}</span>}
        </label>
      )}
      <fieldset class="rows">
        <legend>{t('playlist.add.headers')}</legend>
        {headers.map((row, index) => (
          <div class="row" key={index}>
            <Field label={t('playlist.add.headerName', { number: index + 1 })} value={row.name} onValue={(name) => setHeader(index, { name })} />
            <Field label={t('playlist.add.headerValue', { number: index + 1 })} value={row.value} onValue={(value) => setHeader(index, { value })} />
            <button type="button" class="button-quiet" onClick={() => setHeaders(headers.filter((_, i) => i !== index))}>
              {t('playlist.add.removeHeader', { number: index + 1 })}
            </button>
          </div>
        ))}
        {headersIssue && <p class="field-error">{headersIssue}</p>}
        <button type="button" onClick={() => setHeaders([...headers, { name: '', value: '' }])}>
          {t('playlist.add.addHeader')}
        </button>
      </fieldset>
      <SubtitleFields roomId={props.session.roomId} rows={subtitles} onRows={setSubtitles} issue={issue} />
      <SubmitButton busy={action.busy}>{t('playlist.add.submit')}</SubmitButton>
    </form>
    <LibrarySource session={props.session} />
    {media?.providers.some((candidate) => candidate.name === 'local') && <LocalFileForm session={props.session} />}
    </>
  );
}
