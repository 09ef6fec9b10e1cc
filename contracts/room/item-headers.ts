/**
 * Who sees the values of a playlist item's request headers (an Alist token, a cookie, an
 * X-Emby-Token): those who may edit the item, since they may replace them anyway, which are the
 * holders of `edit_media_resource` and the item's adder while they may add media
 * (`create_media_resource`: own items need nothing more, actors/room/media/playlist-handlers.ts).
 * Everyone else who sees the playlist sees the header names with empty values: enough to know
 * the item carries them, nothing to replay. The room's views apply this per member, and the
 * gateways per recipient to `playlist` events (gateways/rooms/member-lens.ts). A leaf module.
 */
import type { Permission } from '../permissions/names.js';
import type { MediaItem } from './model.js';

export interface ItemViewer {
  userId: string;
  permissions: ReadonlySet<Permission>;
}

export function mayEditItem(viewer: ItemViewer, item: Pick<MediaItem, 'addedBy'>): boolean {
  return viewer.permissions.has('edit_media_resource') || (item.addedBy === viewer.userId && viewer.permissions.has('create_media_resource'));
}

/** `item` as `viewer` may see it: the same object when they may edit it or it has no headers. */
export function itemSeenBy<T extends Pick<MediaItem, 'addedBy' | 'headers'>>(item: T, viewer: ItemViewer): T {
  const names = Object.keys(item.headers);
  if (names.length === 0 || mayEditItem(viewer, item)) return item;
  return { ...item, headers: Object.fromEntries(names.map((name) => [name, ''])) };
}
