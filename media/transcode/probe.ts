/**
 * Probes an item's media when it is added (issue 40): one `ffprobe -show_format -show_streams`
 * run, read as a `MediaProfile` (media/transcode/media-profile.ts), from which
 * media/transcode/reach.ts says how the item reaches browsers.
 *
 * The run takes the same bounded, address-checked path as the embedded subtitles
 * (media/subtitles/embedded.ts): ffprobe reads this service's own signed proxy URL on loopback
 * (media/tools/proxied-read.ts), held to the one demuxer the first bytes were sniffed as, as a
 * job of the process's tool pool keyed by what is read, with a deadline and an output cap;
 * its own words go to the log without the URL, the caller gets ours.
 *
 * A plain audio file (MP3, FLAC, WAV, ADTS AAC) is none of the containers the subtitle code
 * reads, yet it is exactly what a browser plays as it is: an `<audio>`/`<video>` element takes
 * MP3, FLAC, PCM WAV and AAC in all three engines. Refusing it would leave such items with no
 * reach at all, and guessing "direct" from the bytes alone would say nothing of an MP2 inside an
 * .mp3 or a WAV of a codec no browser decodes. So the probe sniffs these files too
 * (media/tools/audio-sniff.ts) and runs ffprobe held to that audio demuxer, which opens nothing
 * a file names; reach.ts then says "direct" when the codec fits the file. What is neither a
 * container nor an audio file we know is not given to a tool: the probe refuses it.
 */
import { AppError } from '../../errors/index.js';
import { sniffAudioFile, type AudioFile } from '../tools/audio-sniff.js';
import { CONTAINER_NAMES, confinedInput, sniffContainer, type FileContainer } from '../tools/container-sniff.js';
import type { MediaTools } from '../tools/media-tools.js';
import { firstBytes, logFailure, type ToolSource } from '../tools/proxied-read.js';
import { mediaProfileOf, type FfprobeOutput, type MediaProfile } from './media-profile.js';

const PROBE_TIMEOUT_MS = 20_000;
/** Room for hundreds of streams (a Matroska file's font attachments are streams too). */
const PROBE_OUTPUT_MAX_BYTES = 1024 * 1024;

const AUDIO_FILE_NAMES: Record<AudioFile, string> = { mp3: 'MP3', flac: 'FLAC', wav: 'WAV', aac: 'AAC' };

/** The facts of the media at `source`, read by one ffprobe run of the tool pool. */
export function probeMedia(tools: MediaTools, source: ToolSource): Promise<MediaProfile> {
  return tools.job(`profile\0${source.identity}`, async () => {
    const head = await firstBytes(source.url, PROBE_TIMEOUT_MS);
    const demuxer: FileContainer | AudioFile | undefined = sniffContainer(head) ?? sniffAudioFile(head);
    if (!demuxer) throw new AppError('bad_gateway', 'the media is not a file the service can read: it starts like none of MP4, Matroska/WebM, AVI, MPEG-TS, Ogg, MP3, FLAC, WAV or AAC');
    const name = demuxer in CONTAINER_NAMES ? CONTAINER_NAMES[demuxer as FileContainer] : AUDIO_FILE_NAMES[demuxer as AudioFile];
    const args = ['-v', 'error', ...confinedInput(demuxer, source.url), '-show_format', '-show_streams', '-of', 'json'];
    const result = await tools.run('ffprobe', args, { timeoutMs: PROBE_TIMEOUT_MS, maxBytes: PROBE_OUTPUT_MAX_BYTES, what: "reading the media's format" });
    if (result.code !== 0) {
      logFailure(tools, 'ffprobe', result, source, demuxer);
      throw new AppError('bad_gateway', `the media's format could not be read: it starts like a ${name} file, but ffprobe could not read it as one`);
    }
    const profile = mediaProfileOf(JSON.parse(result.stdout.toString('utf8')) as FfprobeOutput, demuxer === 'matroska' ? docTypeOf(head) : null);
    if (!profile.video && profile.audio.length === 0) throw new AppError('bad_gateway', `the ${name} file has no video or audio stream to play`);
    return profile;
  });
}

/**
 * The DocType of a Matroska file's EBML header (webm or matroska), which ffprobe does not
 * report (its format is "matroska,webm" for both): element 0x4282 in the first bytes, its
 * size a one-byte EBML number (the DocTypes in use are a few letters).
 */
function docTypeOf(head: Uint8Array): string | null {
  for (let at = 4; at + 3 < Math.min(head.length, 64); at += 1) {
    if (head[at] !== 0x42 || head[at + 1] !== 0x82) continue;
    const size = (head[at + 2] ?? 0) & 0x7f;
    if (((head[at + 2] ?? 0) & 0x80) === 0 || size === 0 || at + 3 + size > head.length) return null;
    return Buffer.from(head.subarray(at + 3, at + 3 + size)).toString('latin1').split('\0')[0] ?? null;
  }
  return null;
}
