/**
 * What a person is told about an item that cannot seek (docs/2026-11-26-seekable-sources.md):
 * the add-media form says it once the server's check has answered, the player says it while
 * such an item is current. A `notice` (not an error): the item plays, only jumping is off.
 */
import type { MediaItem } from '../../../../contracts/room/model.js';
import { useT } from '../../i18n/use-t.js';

/** The form's line about the item just added, by the server's answer about it. */
export function SeekableNote(props: { item: Pick<MediaItem, 'seekable' | 'live'>; where: 'form' | 'player' }) {
  const t = useT();
  const { item } = props;
  if (item.live) return null;
  if (props.where === 'player' && item.seekable !== 'no') return null;
  return (
    <p class="notice seekable-note" role="status" data-seekable={item.seekable}>
      {t(`room.seekable.${item.seekable}`)}
    </p>
  );
}
