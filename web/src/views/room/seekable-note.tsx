/**
 * What a person is told about an item that cannot seek (docs/2026-11-26-seekable-sources.md):
 * the add-media form says it once the server's check has answered, the player says it while
 * such an item is current. A `notice` (not an error): the item plays, only jumping is off.
 */
import type { MediaItem } from '../../../../contracts/room/model.js';

export const NOT_SEEKABLE = "This source can't seek: everyone will watch it from the start, without jumping.";

const FORM_TEXT: Record<MediaItem['seekable'], string> = {
  yes: 'This source can seek: jumping works for everyone.',
  no: NOT_SEEKABLE,
  checking: 'Checking whether this source can seek…',
  unknown:
    'The server could not check whether this source can seek (it did not answer in time, or it is at an address the server does not fetch). Jumping may not work; if it snaps back to the start, use another link.',
};

/** The form's line about the item just added, by the server's answer about it. */
export function SeekableNote(props: { item: Pick<MediaItem, 'seekable' | 'live'>; where: 'form' | 'player' }) {
  const { item } = props;
  if (item.live) return null;
  if (props.where === 'player' && item.seekable !== 'no') return null;
  return (
    <p class="notice seekable-note" role="status" data-seekable={item.seekable}>
      {FORM_TEXT[item.seekable]}
    </p>
  );
}
