/**
 * What the player says while an item plays through the server's shared transcode (sources.ts's
 * `Playing`): a quiet line, "Audio converted for browsers" or "Converted: 720p (auto)" with the
 * rung in use; or, when no transcoder could take the item, a notice that it plays as it is
 * (which may fail in this browser: the element's error then says why). The quiet line is no
 * live region: it changes each time Auto switches rungs, which is not worth announcing.
 */
import type { QualityControl } from '../../../player/quality.js';
import { refusedLine, transcodeLine } from '../../../player/reach-words.js';
import type { PlayTranscode } from '../../../player/sources.js';
import { useQuality } from '../../../player/use-quality.js';
import { useT } from '../../../i18n/use-t.js';

export function TranscodeNote(props: { transcode: PlayTranscode | null; quality: QualityControl | null }) {
  useT(); // re-render on a language switch: the words come from reach-words.ts
  const rung = useQuality(props.quality);
  const { transcode } = props;
  if (!transcode) return null;
  if (transcode.refused !== undefined)
    return (
      <p class="notice transcode-note" role="status" data-transcode="refused">
        {refusedLine(transcode.refused)}
      </p>
    );
  return (
    <p class="player-transcode" data-transcode={transcode.how}>
      {transcodeLine(transcode, rung)}
    </p>
  );
}
