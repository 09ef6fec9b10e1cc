/**
 * Browsing one library: the folder with a breadcrumb back to the root, a search over the whole
 * library, and adding a file or a whole folder (its video and audio files, subfolders included,
 * up to the server's cap) to the end of the playlist. What was added, and whether the folder
 * held more than one add takes, is said after each add.
 */
import { useEffect, useState } from 'preact/hooks';
import { addFromLibrary, listFolder, searchLibrary, type Library, type LibraryAddAnswer, type LibraryEntry, type LibraryListing } from '../../../state/libraries.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Field } from '../../../ui/field.js';
import { useAction } from '../../../ui/use-action.js';
import { Rich } from '../../../i18n/rich.js';
import { useT } from '../../../i18n/use-t.js';

interface Crumb {
  id: string | null;
  name: string;
}

export function LibraryBrowser(props: { roomId: string; library: Library }) {
  const { roomId, library } = props;
  const t = useT();
  const [trail, setTrail] = useState<Crumb[]>([{ id: null, name: library.name }]);
  const [listing, setListing] = useState<LibraryListing | null>(null);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ entries: LibraryEntry[]; truncated: boolean } | null>(null);
  const [added, setAdded] = useState<LibraryAddAnswer | null>(null);
  const browse = useAction();
  const add = useAction();
  const here = trail[trail.length - 1]!;

  useEffect(() => {
    setListing(null);
    void browse.run(async () => setListing(await listFolder(roomId, library.id, here.id)));
  }, [library.id, here.id]);

  const open = (entry: LibraryEntry) => {
    setResults(null);
    setTrail([...trail, { id: entry.id, name: entry.name }]);
  };
  const search = async (event: Event) => {
    event.preventDefault();
    if (!query.trim()) return;
    await browse.run(async () => setResults(await searchLibrary(roomId, library.id, query.trim())));
  };
  const addEntry = (entry: LibraryEntry) =>
    add.run(async () => {
      setAdded(null);
      setAdded(await addFromLibrary(roomId, library.id, entry));
    });

  /** What the last add did: how much, whether the folder held more, and why it stopped. */
  const addedText = (answer: LibraryAddAnswer): string => {
    const more = answer.capped ? t('playlist.library.browse.capped') : '';
    const stopped = answer.rejected ? t('playlist.library.browse.stopped', { message: answer.rejected.message }) : '';
    const count = answer.added.length;
    return count === 1
      ? t('playlist.library.browse.addedOne', { title: answer.added[0]!.item.title, more, stopped })
      : t('playlist.library.browse.addedMany', { count, more, stopped });
  };

  const entries = results?.entries ?? listing?.entries ?? [];
  return (
    <div class="library-browser">
      <nav aria-label={t('playlist.library.browse.path')} class="library-trail">
        <ol>
          {trail.map((crumb, index) => (
            <li key={`${index}:${crumb.id ?? ''}`}>
              {index === trail.length - 1 && !results ? (
                <span aria-current="location">{crumb.name}</span>
              ) : (
                <button
                  type="button"
                  class="button-quiet"
                  onClick={() => {
                    setResults(null);
                    setTrail(trail.slice(0, index + 1));
                  }}
                >
                  {crumb.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <form class="library-search" role="search" onSubmit={(event) => void search(event)}>
        <Field label={t('playlist.library.browse.search')} type="search" value={query} onValue={setQuery} maxLength={200} />
        <button type="submit" disabled={browse.busy}>
          {t('playlist.library.browse.searchButton')}
        </button>
      </form>
      <ErrorNotice error={browse.error} onDismiss={browse.clear} />
      <ErrorNotice error={add.error} onDismiss={add.clear} />
      {added && (
        <p class="notice" role="status">
          {addedText(added)}
        </p>
      )}
      {results ? (
        <p class="library-status">
          {t(results.truncated ? 'playlist.library.browse.foundTruncated' : 'playlist.library.browse.found', { count: results.entries.length })}{' '}
          <button type="button" class="button-quiet" onClick={() => setResults(null)}>
            {t('playlist.library.browse.backTo', { name: here.name })}
          </button>
        </p>
      ) : (
        listing && (
          <p class="library-status">
            <button type="button" disabled={add.busy} onClick={() => void addEntry({ id: listing.folder.id, name: listing.folder.name, kind: 'folder' })}>
              <Rich k="playlist.library.browse.addThisFolder" parts={{ name: <span class="visually-hidden"> ({here.name})</span> }} />
            </button>
            {listing.truncated && <span class="muted"> {t('playlist.library.browse.truncated')}</span>}
          </p>
        )
      )}
      {browse.busy && !listing && <p class="muted">{t('common.loading')}</p>}
      <ul class="library-entries" aria-label={results ? t('playlist.library.browse.results') : t('playlist.library.browse.contents', { name: here.name })}>
        {entries.map((entry) => (
          <li key={entry.id} class={`library-entry library-${entry.kind}`}>
            {entry.kind === 'folder' ? (
              <>
                <button type="button" class="button-quiet library-name" onClick={() => open(entry)}>
                  {entry.name}
                  <span aria-hidden="true">/</span>
                </button>
                <button type="button" class="button-quiet" disabled={add.busy} onClick={() => void addEntry(entry)}>
                  <Rich k="playlist.library.browse.addFolder" parts={{ name: <span class="visually-hidden"> {entry.name}</span> }} />
                </button>
              </>
            ) : (
              <>
                <span class={`library-name${entry.kind === 'other' ? ' muted' : ''}`}>
                  {entry.name}
                  {entry.size !== undefined && <span class="muted"> · {formatSize(entry.size)}</span>}
                </span>
                {entry.kind !== 'other' && (
                  <button type="button" class="button-quiet" disabled={add.busy} onClick={() => void addEntry(entry)}>
                    <Rich k="playlist.library.browse.addFile" parts={{ name: <span class="visually-hidden"> {entry.name}</span> }} />
                  </button>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {listing && entries.length === 0 && <p class="muted">{t(results ? 'playlist.library.browse.noMatch' : 'playlist.library.browse.emptyFolder')}</p>}
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
