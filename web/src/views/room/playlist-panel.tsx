/**
 * The shared playlist: the current item marked, and (as permissions allow) play this, reorder,
 * remove and clear. Reordering works by drag and drop, by the move buttons, and by Alt+Arrow on
 * a focused item; each move is announced, and the list follows the room's `moved` events.
 */
import { useRef, useState } from 'preact/hooks';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { AddMediaForm } from './add-media-form.js';
import { AddLiveItem, LiveBadge, StreamKeyPanel } from './live-panel.js';
import { useAction } from '../../ui/use-action.js';
import { useMediaProviders } from '../../state/media-providers.js';
import { UpvoteButton } from './upvote-button.js';

export function PlaylistPanel(props: { session: RoomSession }) {
  const { session } = props;
  const view = session.view.value;
  const items = view?.playlist ?? [];
  const current = view?.playback.mediaId ?? null;
  const action = useAction();
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const canReorder = session.can('reorder_media_resources');
  const canDelete = session.can('delete_media_resource');
  const canSetCurrent = session.can('set_current_media');
  const canPublish = session.can('publish_livestream');
  const onAir = new Set(view?.liveOnline ?? []);
  const media = useMediaProviders();
  const providerLabel = (name: string): string => media?.providers.find((provider) => provider.name === name)?.label ?? name;
  // Through the media proxy: by the item's switch, or always for a provider that requires it.
  const proxied = (item: { provider: string; proxy: boolean }): boolean =>
    item.proxy || media?.providers.find((provider) => provider.name === item.provider)?.proxy === 'required';

  const move = async (mediaId: string, toIndex: number, refocus: boolean) => {
    const item = items.find((entry) => entry.id === mediaId);
    if (!item || toIndex < 0 || toIndex >= items.length) return;
    const ok = await action.run(() => session.send({ kind: 'playlist.move', mediaId, toIndex }));
    if (!ok) return;
    setAnnouncement(`Moved “${item.title}” to position ${toIndex + 1} of ${items.length}.`);
    // The item keeps the focus at its new place, so several Alt+Arrow presses walk it along.
    if (refocus) requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-media-id="${CSS.escape(mediaId)}"]`)?.focus());
  };

  if (!view?.playlist) return <p class="muted">You cannot see this room’s playlist.</p>;
  return (
    <section aria-labelledby="playlist-heading">
      <h2 id="playlist-heading">Playlist</h2>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {items.length === 0 ? (
        <p class="muted">The playlist is empty.</p>
      ) : (
        <>
          {canReorder && <p class="muted hint">Drag items, use the arrows, or press Alt+Up / Alt+Down on an item to reorder.</p>}
          <ol class="playlist" ref={list}>
            {items.map((item, index) => (
              <li
                key={item.id}
                data-media-id={item.id}
                class={`playlist-item${item.id === current ? ' is-current' : ''}${dragging === item.id ? ' is-dragging' : ''}`}
                tabIndex={canReorder ? 0 : undefined}
                aria-label={canReorder ? `${item.title}, position ${index + 1} of ${items.length}${item.id === current ? ', now playing' : ''}` : undefined}
                draggable={canReorder}
                onDragStart={(event) => {
                  setDragging(item.id);
                  event.dataTransfer?.setData('text/plain', item.id);
                }}
                onDragEnd={() => setDragging(null)}
                onDragOver={(event) => canReorder && event.preventDefault()}
                onDrop={(event) => {
                  event.preventDefault();
                  const mediaId = event.dataTransfer?.getData('text/plain') || dragging;
                  setDragging(null);
                  if (mediaId && mediaId !== item.id) void move(mediaId, index, false);
                }}
                onKeyDown={(event) => {
                  if (!canReorder || !event.altKey || event.target !== event.currentTarget) return;
                  if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
                    event.preventDefault();
                    void move(item.id, index + (event.key === 'ArrowUp' ? -1 : 1), true);
                  }
                }}
              >
                <div class="playlist-title">
                  <span>{item.title}</span>
                  {item.id === current && <span class="badge">Now playing</span>}
                  {item.live && <span class="badge">Live</span>}
                  {item.provider === 'live' && <LiveBadge online={onAir.has(item.id)} />}
                  {item.provider !== 'direct' && <span class="badge">{providerLabel(item.provider)}</span>}
                  {proxied(item) && <span class="badge">Proxied</span>}
                </div>
                {item.provider === 'live' && canPublish && <StreamKeyPanel roomId={session.roomId} mediaId={item.id} title={item.title} />}
                <div class="playlist-actions">
                  {item.id !== current && <UpvoteButton session={session} action={action} mediaId={item.id} title={item.title} />}
                  {canSetCurrent && item.id !== current && (
                    <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'playlist.setCurrent', mediaId: item.id }))}>
                      Play<span class="visually-hidden"> {item.title}</span>
                    </button>
                  )}
                  {canReorder && (
                    <>
                      <button type="button" class="button-quiet" disabled={index === 0} onClick={() => void move(item.id, index - 1, false)} aria-label={`Move ${item.title} up`}>
                        ↑
                      </button>
                      <button type="button" class="button-quiet" disabled={index === items.length - 1} onClick={() => void move(item.id, index + 1, false)} aria-label={`Move ${item.title} down`}>
                        ↓
                      </button>
                    </>
                  )}
                  {canDelete && (
                    <button type="button" class="button-quiet" onClick={() => void action.run(() => session.send({ kind: 'playlist.remove', mediaId: item.id }))}>
                      Remove<span class="visually-hidden"> {item.title}</span>
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ol>
          {canDelete && <ClearButton onClear={() => void action.run(() => session.send({ kind: 'playlist.clear' }))} />}
        </>
      )}
      {session.can('create_media_resource') && <AddMediaForm session={session} />}
      {session.can('create_media_resource') && canPublish && <AddLiveItem roomId={session.roomId} />}
    </section>
  );
}

function ClearButton(props: { onClear: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        Clear the playlist
      </button>
    );
  return (
    <p class="confirm-row">
      <span>Remove every item?</span>
      <button
        type="button"
        class="button-danger"
        onClick={() => {
          setAsking(false);
          props.onClear();
        }}
      >
        Clear
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Keep
      </button>
    </p>
  );
}
