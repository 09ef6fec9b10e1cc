/**
 * One playlist folder in the playlist panel: a collapsible group with its title and item count,
 * and (as permissions allow) play it, rename, move and delete it — deleting asks whether its
 * items stay or go with it. Items are dropped onto the header to move them in.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PlaylistFolder } from '../../../../contracts/room/model.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';

/** Symbols, not words: the buttons are named by their aria-label or the folder's title. */
const UP = '↑';
const DOWN = '↓';
const OPEN = '▾';
const CLOSED = '▸';

export interface FolderActions {
  canRename: boolean;
  canReorder: boolean;
  canDelete: boolean;
  rename: (title: string) => Promise<boolean>;
  move: (toIndex: number) => void;
  remove: (withItems: boolean) => void;
  /** An item dropped on the folder's header goes in, last ("" when the drop carried no id: the one being dragged). */
  dropItem: (mediaId: string) => void;
  /** Play in order / Shuffle, when the room can play a folder and the member may choose what plays. */
  play?: (order: 'in_order' | 'shuffle') => void;
}

export function PlaylistFolderGroup(props: { folder: PlaylistFolder; count: number; last: number; actions: FolderActions; children: ComponentChildren }) {
  const { folder, count, actions } = props;
  const t = useT();
  const [open, setOpen] = useState(true);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(folder.title);
  const [asking, setAsking] = useState(false);
  const [dropping, setDropping] = useState(false);
  const bodyId = `folder-${folder.id}`;
  return (
    <li class={`playlist-folder${dropping ? ' is-drop-target' : ''}`} data-folder-id={folder.id} aria-label={t('playlist.folder.label', { title: folder.title })}>
      <div
        class="playlist-folder-head"
        onDragOver={(event) => {
          if (!actions.canReorder) return;
          event.preventDefault();
          setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDropping(false);
          actions.dropItem(event.dataTransfer?.getData('text/plain') ?? '');
        }}
      >
        <button type="button" class="button-quiet folder-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? OPEN : CLOSED}</span> <span class="folder-title">{folder.title}</span>{' '}
          <span class="badge">{t('playlist.folder.items', { count })}</span>
        </button>
        <div class="playlist-actions">
          {actions.play && count > 0 && (
            <>
              <button type="button" class="button-quiet" onClick={() => actions.play!('in_order')}>
                <Rich k="playlist.folder.playInOrder" parts={{ title: <span class="visually-hidden"> {folder.title}</span> }} />
              </button>
              <button type="button" class="button-quiet" onClick={() => actions.play!('shuffle')}>
                <Rich k="playlist.folder.shuffle" parts={{ title: <span class="visually-hidden"> {folder.title}</span> }} />
              </button>
            </>
          )}
          {actions.canRename && !renaming && (
            <button type="button" class="button-quiet" onClick={() => setRenaming(true)}>
              <Rich k="playlist.folder.rename" parts={{ which: <span class="visually-hidden">{t('playlist.folder.which', { title: folder.title })}</span> }} />
            </button>
          )}
          {actions.canReorder && (
            <>
              <button type="button" class="button-quiet" disabled={folder.index === 0} onClick={() => actions.move(folder.index - 1)} aria-label={t('playlist.folder.moveUp', { title: folder.title })}>
                {UP}
              </button>
              <button type="button" class="button-quiet" disabled={folder.index >= props.last} onClick={() => actions.move(folder.index + 1)} aria-label={t('playlist.folder.moveDown', { title: folder.title })}>
                {DOWN}
              </button>
            </>
          )}
          {actions.canDelete && !asking && (
            <button type="button" class="button-quiet" onClick={() => setAsking(true)}>
              <Rich k="playlist.folder.delete" parts={{ which: <span class="visually-hidden">{t('playlist.folder.which', { title: folder.title })}</span> }} />
            </button>
          )}
        </div>
      </div>
      {renaming && (
        <form
          class="confirm-row"
          onSubmit={(event) => {
            event.preventDefault();
            void actions.rename(title).then((ok) => ok && setRenaming(false));
          }}
        >
          <label>
            <span class="visually-hidden">{t('playlist.folder.newName', { title: folder.title })}</span>
            <input value={title} maxLength={256} required onInput={(event) => setTitle(event.currentTarget.value)} />
          </label>
          <button type="submit">{t('playlist.folder.saveName')}</button>
          <button type="button" onClick={() => setRenaming(false)}>
            {t('common.cancel')}
          </button>
        </form>
      )}
      {asking && (
        <p class="confirm-row" role="group" aria-label={t('playlist.folder.deleteGroup', { title: folder.title })}>
          <span>{t('playlist.folder.deleteQuestion')}</span>
          <button
            type="button"
            onClick={() => {
              setAsking(false);
              actions.remove(false);
            }}
          >
            {t('playlist.folder.keepItems')}
          </button>
          <button
            type="button"
            class="button-danger"
            onClick={() => {
              setAsking(false);
              actions.remove(true);
            }}
          >
            {t('playlist.folder.deleteWithItems')}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('common.cancel')}
          </button>
        </p>
      )}
      <ol class="playlist playlist-in-folder" id={bodyId} hidden={!open}>
        {props.children}
      </ol>
      {open && count === 0 && <p class="muted hint">{t('playlist.folder.emptyHint')}</p>}
    </li>
  );
}

/** "New folder": a name, then the folder is added last among the top-level entries. */
export function NewFolderButton(props: { add: (title: string) => Promise<boolean> }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const [title, setTitle] = useState('');
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        {t('playlist.folder.add')}
      </button>
    );
  return (
    <form
      class="confirm-row"
      onSubmit={(event) => {
        event.preventDefault();
        void props.add(title).then((ok) => {
          if (!ok) return;
          setTitle('');
          setAsking(false);
        });
      }}
    >
      <label>
        {t('playlist.folder.name')} <input value={title} maxLength={256} required onInput={(event) => setTitle(event.currentTarget.value)} />
      </label>
      <button type="submit">{t('playlist.folder.create')}</button>
      <button type="button" onClick={() => setAsking(false)}>
        {t('common.cancel')}
      </button>
    </form>
  );
}
