/**
 * One playlist folder in the playlist panel: a collapsible group with its title and item count,
 * and (as permissions allow) play it, rename, move and delete it — deleting asks whether its
 * items stay or go with it. Items are dropped onto the header to move them in.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PlaylistFolder } from '../../../../contracts/room/model.js';

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
  const [open, setOpen] = useState(true);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(folder.title);
  const [asking, setAsking] = useState(false);
  const [dropping, setDropping] = useState(false);
  const bodyId = `folder-${folder.id}`;
  return (
    <li class={`playlist-folder${dropping ? ' is-drop-target' : ''}`} data-folder-id={folder.id} aria-label={`Folder ${folder.title}`}>
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
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> <span class="folder-title">{folder.title}</span>{' '}
          <span class="badge">{count === 1 ? '1 item' : `${count} items`}</span>
        </button>
        <div class="playlist-actions">
          {actions.play && count > 0 && (
            <>
              <button type="button" class="button-quiet" onClick={() => actions.play!('in_order')}>
                Play in order<span class="visually-hidden"> {folder.title}</span>
              </button>
              <button type="button" class="button-quiet" onClick={() => actions.play!('shuffle')}>
                Shuffle<span class="visually-hidden"> {folder.title}</span>
              </button>
            </>
          )}
          {actions.canRename && !renaming && (
            <button type="button" class="button-quiet" onClick={() => setRenaming(true)}>
              Rename<span class="visually-hidden"> folder {folder.title}</span>
            </button>
          )}
          {actions.canReorder && (
            <>
              <button type="button" class="button-quiet" disabled={folder.index === 0} onClick={() => actions.move(folder.index - 1)} aria-label={`Move folder ${folder.title} up`}>
                ↑
              </button>
              <button type="button" class="button-quiet" disabled={folder.index >= props.last} onClick={() => actions.move(folder.index + 1)} aria-label={`Move folder ${folder.title} down`}>
                ↓
              </button>
            </>
          )}
          {actions.canDelete && !asking && (
            <button type="button" class="button-quiet" onClick={() => setAsking(true)}>
              Delete<span class="visually-hidden"> folder {folder.title}</span>
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
            <span class="visually-hidden">New name for folder {folder.title}</span>
            <input value={title} maxLength={256} required onInput={(event) => setTitle(event.currentTarget.value)} />
          </label>
          <button type="submit">Save name</button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      )}
      {asking && (
        <p class="confirm-row" role="group" aria-label={`Delete folder ${folder.title}`}>
          <span>Delete this folder?</span>
          <button
            type="button"
            onClick={() => {
              setAsking(false);
              actions.remove(false);
            }}
          >
            Keep the items
          </button>
          <button
            type="button"
            class="button-danger"
            onClick={() => {
              setAsking(false);
              actions.remove(true);
            }}
          >
            Delete with items
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </p>
      )}
      <ol class="playlist playlist-in-folder" id={bodyId} hidden={!open}>
        {props.children}
      </ol>
      {open && count === 0 && <p class="muted hint">Empty: drag items here, or use “Move to folder”.</p>}
    </li>
  );
}

/** "New folder": a name, then the folder is added last among the top-level entries. */
export function NewFolderButton(props: { add: (title: string) => Promise<boolean> }) {
  const [asking, setAsking] = useState(false);
  const [title, setTitle] = useState('');
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        New folder
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
        Folder name <input value={title} maxLength={256} required onInput={(event) => setTitle(event.currentTarget.value)} />
      </label>
      <button type="submit">Create folder</button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </form>
  );
}
