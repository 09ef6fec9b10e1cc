/**
 * How an item reaches browsers, under it in the playlist and in the add-media form's note about
 * the item just added (its check answers a moment after the add, and the item arrives again
 * through the room's `playlist edited` event with `reach` set). Nothing for an item that plays
 * as it is or is not checked yet. The line opens to the why (what browsers cannot take), the
 * source's streams and its image subtitles: a `<details>`, so touch and keyboard reach it too,
 * which a title attribute would not.
 */
import { reachDetails, reachLine, type ReachWords } from '../../player/reach-words.js';
import { useT } from '../../i18n/use-t.js';

export function ReachNote(props: { reach: ReachWords | null; where: 'playlist' | 'form' }) {
  useT(); // re-render on a language switch: the words come from reach-words.ts
  const { reach } = props;
  const line = reachLine(reach);
  if (reach === null || line === null) return null;
  const details = reachDetails(reach);
  const note =
    details.length === 0 ? (
      <p class="reach-note" data-reach={reach.how}>
        {line}
      </p>
    ) : (
      <details class="reach-note" data-reach={reach.how}>
        <summary>{line}</summary>
        <ul>
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      </details>
    );
  // The form's note is announced when the check answers, like the seek check's (seekable-note.tsx).
  return props.where === 'form' ? (
    <div class="notice" role="status">
      {note}
    </div>
  ) : (
    note
  );
}
