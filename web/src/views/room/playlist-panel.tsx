/**
 * The shared playlist: the current item marked, how an item reaches browsers when it is
 * converted for them (reach-note.tsx), folders as collapsible groups, and (as
 * permissions allow) play this, reorder, move into or out of a folder, remove and clear.
 * Reordering works by drag and drop (onto a folder's header to put an item in), by the move
 * buttons, and by Alt+Arrow on a focused item; "Move to folder" is the keyboard way between
 * folders. Each move is announced, and the list follows the room's `playlist` events.
 */
import { useRef, useState } from 'preact/hooks';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { AddMediaForm } from './add-media-form.js';
import { AddLiveItem, LiveBadge, StreamKeyPanel } from './live-panel.js';
import { useAction } from '../../ui/use-action.js';
import { useMediaProviders } from '../../state/media-providers.js';
import { UpvoteButton } from './upvote-button.js';
import { NewFolderButton, PlaylistFolderGroup, type FolderActions } from './playlist-folder.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';
import { playlistTree } from '../../../../contracts/room/playlist-tree.js';
import type { MediaItem, PlaylistFolder } from '../../../../contracts/room/model.js';
import { providerLabel } from '../../i18n/server-labels.js';
import { ReachNote } from './reach-note.js';

/** Symbols, not words: the buttons are named by their aria-label. */
const UP = '↑';
const DOWN = '↓';

export function PlaylistPanel(props: { session: RoomSession }) {
  const { session } = props;
  const t = useT();
  const view = session.view.value;
  const items = view?.playlist ?? [];
  const folders = view?.playlistFolders ?? [];
  const tree = playlistTree(items, folders);
  const current = view?.playback.mediaId ?? null;
  const action = useAction();
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const canReorder = session.can('reorder_media_resources');
  const canDelete = session.can('delete_media_resource');
  const canSetCurrent = session.can('set_current_media');
  const canPublish = session.can('publish_livestream');
  const canCreate = session.can('create_media_resource');
  const onAir = new Set(view?.liveOnline ?? []);
  const media = useMediaProviders();
  const labelOf = (name: string): string => {
    const provider = media?.providers.find((candidate) => candidate.name === name);
    return provider ? providerLabel(provider) : name;
  };
  // Through the media proxy: by the item's switch, or always for a provider that requires it.
  const proxied = (item: { provider: string; proxy: boolean }): boolean =>
    item.proxy || media?.providers.find((provider) => provider.name === item.provider)?.proxy === 'required';

  /** The entries of a container: a folder's items, or the top-level entries. */
  const containerSize = (folderId: string | null): number =>
    folderId === null ? tree.length : (tree.find((entry) => entry.kind === 'folder' && entry.folder.id === folderId) as { items: MediaItem[] } | undefined)?.items.length ?? 0;
  const folderTitle = (folderId: string | null): string => folders.find((folder) => folder.id === folderId)?.title ?? '';

  /** Moves an item to `toIndex` of `folderId` (null: the top level), and says so. */
  const move = async (mediaId: string, folderId: string | null, toIndex: number, refocus: boolean) => {
    const item = items.find((entry) => entry.id === mediaId);
    if (!item || toIndex < 0) return;
    const within = item.folderId === folderId;
    const size = containerSize(folderId) - (within ? 1 : 0);
    if (toIndex > size) return;
    const ok = await action.run(() => session.send({ kind: 'playlist.move', mediaId, toIndex, folderId }));
    if (!ok) return;
    if (!within && folderId !== null) setAnnouncement(t('playlist.moved.intoFolder', { title: item.title, folder: folderTitle(folderId) }));
    else if (!within) setAnnouncement(t('playlist.moved.outOfFolder', { title: item.title }));
    else setAnnouncement(t('playlist.moved.toPosition', { title: item.title, position: toIndex + 1, size: size + 1 }));
    // The item keeps the focus at its new place, so several Alt+Arrow presses walk it along.
    if (refocus) requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-media-id="${CSS.escape(mediaId)}"]`)?.focus());
  };

  const folderActions = (folder: PlaylistFolder): FolderActions => ({
    canRename: session.can('edit_media_resource'),
    canReorder,
    canDelete,
    rename: (title) => action.run(() => session.send({ kind: 'playlist.folder.rename', folderId: folder.id, title })),
    move: (toIndex) => void action.run(() => session.send({ kind: 'playlist.folder.move', folderId: folder.id, toIndex })),
    remove: (withItems) => void action.run(() => session.send({ kind: 'playlist.folder.remove', folderId: folder.id, withItems })),
    dropItem: (dropped) => {
      const mediaId = dropped || dragging;
      setDragging(null);
      const moving = items.find((item) => item.id === mediaId);
      if (moving) void move(moving.id, folder.id, containerSize(folder.id) - (moving.folderId === folder.id ? 1 : 0), false);
    },
    ...(canSetCurrent ? { play: (order: 'in_order' | 'shuffle') => void action.run(() => session.send({ kind: 'playlist.folder.play', folderId: folder.id, order })) } : {}),
  });

  /** One item, at `index` of its container of `size` entries. */
  const itemRow = (item: MediaItem, index: number, size: number) => (
    <li
      key={item.id}
      data-media-id={item.id}
      class={`playlist-item${item.id === current ? ' is-current' : ''}${dragging === item.id ? ' is-dragging' : ''}`}
      tabIndex={canReorder ? 0 : undefined}
      aria-label={canReorder ? t(item.id === current ? 'playlist.itemPositionPlaying' : 'playlist.itemPosition', { title: item.title, position: index + 1, size }) : undefined}
      draggable={canReorder}
      onDragStart={(event) => {
        event.stopPropagation();
        setDragging(item.id);
        event.dataTransfer?.setData('text/plain', item.id);
      }}
      onDragEnd={() => setDragging(null)}
      onDragOver={(event) => canReorder && event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        event.stopPropagation();
        const mediaId = event.dataTransfer?.getData('text/plain') || dragging;
        setDragging(null);
        if (mediaId && mediaId !== item.id) void move(mediaId, item.folderId, index, false);
      }}
      onKeyDown={(event) => {
        if (!canReorder || !event.altKey || event.target !== event.currentTarget) return;
        if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
          event.preventDefault();
          void move(item.id, item.folderId, index + (event.key === 'ArrowUp' ? -1 : 1), true);
        }
      }}
    >
      <div class="playlist-title">
        <span>{item.title}</span>
        {item.id === current && <span class="badge">{t('playlist.nowPlaying')}</span>}
        {item.live && <span class="badge">{t('playlist.live')}</span>}
        {item.provider === 'live' && <LiveBadge online={onAir.has(item.id)} />}
        {item.provider !== 'direct' && <span class="badge">{labelOf(item.provider)}</span>}
        {proxied(item) && <span class="badge">{t('playlist.proxied')}</span>}
      </div>
      {item.provider === 'live' && canPublish && <StreamKeyPanel roomId={session.roomId} mediaId={item.id} title={item.title} />}
      <div class="playlist-actions">
        {item.id !== current && <UpvoteButton session={session} action={action} mediaId={item.id} title={item.title} />}
        {canSetCurrent && item.id !== current && (
          <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'playlist.setCurrent', mediaId: item.id }))}>
            <Rich k="playlist.play" parts={{ title: <span class="visually-hidden"> {item.title}</span> }} />
          </button>
        )}
        {canReorder && (
          <>
            <button type="button" class="button-quiet" disabled={index === 0} onClick={() => void move(item.id, item.folderId, index - 1, false)} aria-label={t('playlist.moveUp', { title: item.title })}>
              {UP}
            </button>
            <button type="button" class="button-quiet" disabled={index === size - 1} onClick={() => void move(item.id, item.folderId, index + 1, false)} aria-label={t('playlist.moveDown', { title: item.title })}>
              {DOWN}
            </button>
          </>
        )}
        {canReorder && folders.length > 0 && (
          <label class="move-to-folder">
            <span class="visually-hidden">{t('playlist.moveToFolder', { title: item.title })}</span>
            <select
              value={item.folderId ?? ''}
              onChange={(event) => {
                const target = event.currentTarget.value || null;
                if (target !== item.folderId) void move(item.id, target, containerSize(target), false);
              }}
            >
              <option value="">{t('playlist.notInFolder')}</option>
              {folders.map((folder) => (
                <option key={folder.id} value={folder.id}>
                  {folder.title}
                </option>
              ))}
            </select>
          </label>
        )}
        {canDelete && (
          <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'playlist.remove', mediaId: item.id }))}>
            <Rich k="playlist.remove" parts={{ title: <span class="visually-hidden"> {item.title}</span> }} />
          </button>
        )}
      </div>
      <ReachNote reach={item.reach ?? null} where="playlist" />
    </li>
  );

  if (!view?.playlist) return <p class="muted">{t('playlist.cannotSee')}</p>;
  return (
    <section aria-labelledby="playlist-heading">
      <h2 id="playlist-heading">{t('playlist.heading')}</h2>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {tree.length === 0 ? (
        <p class="muted">{t('playlist.empty')}</p>
      ) : (
        <>
          {canReorder && <p class="muted hint">{t('playlist.reorderHint')}</p>}
          <ol class="playlist" ref={list}>
            {tree.map((entry, index) =>
              entry.kind === 'item' ? (
                itemRow(entry.item, index, tree.length)
              ) : (
                <PlaylistFolderGroup key={entry.folder.id} folder={entry.folder} count={entry.items.length} last={tree.length - 1} actions={folderActions(entry.folder)}>
                  {entry.items.map((item, inner) => itemRow(item, inner, entry.items.length))}
                </PlaylistFolderGroup>
              ),
            )}
          </ol>
          {canDelete && <ClearButton onClear={() => void action.run(() => session.send({ kind: 'playlist.clear' }))} />}
        </>
      )}
      {canCreate && (
        <p class="playlist-tools">
          <NewFolderButton add={(title) => action.run(() => session.send({ kind: 'playlist.folder.add', title }))} />
        </p>
      )}
      {canCreate && <AddMediaForm session={session} />}
      {canCreate && canPublish && <AddLiveItem roomId={session.roomId} />}
    </section>
  );
}

function ClearButton(props: { onClear: () => void }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        {t('playlist.clear.open')}
      </button>
    );
  return (
    <p class="confirm-row">
      <span>{t('playlist.clear.question')}</span>
      <button
        type="button"
        class="button-danger"
        onClick={() => {
          setAsking(false);
          props.onClear();
        }}
      >
        {t('playlist.clear.confirm')}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t('playlist.clear.keep')}
      </button>
    </p>
  );
}
