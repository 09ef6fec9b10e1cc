/**
 * Content rules for what users put into a room: names, chat text, media items and permission
 * overrides. Each check reports the field it failed on; the handlers gather them into one
 * `invalid_argument`.
 */
import { AppError, type FieldIssue } from '../../errors/index.js';
import { isWithinGuestCeiling } from '../../contracts/permissions/defaults.js';
import { isAdministration, isPermission, type Permission } from '../../contracts/permissions/names.js';
import { isWellFormed, LONE_SURROGATE, MULTI_LINE, MULTI_LINE_CONTROL_MESSAGE } from '../../contracts/text.js';
import { ROOM_LIMITS } from '../../contracts/room/limits.js';
import type { MediaItem, PermissionOverrides, RoomRole, Subtitle } from '../../contracts/room/model.js';
import type { SubtitleInput } from '../../contracts/room/subtitles.js';
import { pullUrlProblem } from '../../contracts/room/pull-source.js';

/**
 * What a one-line label shown to others may not contain: room names and media titles are
 * refused with it (`checkLabel`), display names have it stripped (`displayName`).
 *   - C0 controls, DEL and C1 controls, line breaks included (U+2028 and U+2029 too);
 *   - explicit bidirectional embeddings, overrides and isolates (U+202A..U+202E,
 *     U+2066..U+2069): they make a name display as something else ("Alice\u202Enimda" shows
 *     as "Aliceadmin") and, left open, reorder the text shown after it. The implicit marks
 *     (LRM, RLM, ALM) cannot, and right-to-left names need them, so they stay.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LABEL_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** Every forbidden character and lone surrogate, for stripping. */
const LABEL_FORBIDDEN_ALL = new RegExp(`${LABEL_FORBIDDEN.source}|${LONE_SURROGATE.source}`, 'gu');
// Characters that draw nothing: spaces, controls, format characters (zero-width space and
// joiners, bidi marks, soft hyphen), separators, combining marks on their own, and the
// letters and symbols that render blank (Hangul fillers, braille blank). A label needs one other.
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Z}\p{M}\u115f\u1160\u3164\uffa0\u2800]/u;

/** Characters as people count them (code points), not UTF-16 units. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * A one-line label (room name, media title): trimmed, non-empty, with something visible, no
 * control characters, line breaks or bidi overrides.
 */
export function checkLabel(value: string, key: string, maxChars: number, issues: FieldIssue[]): string {
  const text = value.trim();
  if (text.length === 0) issues.push({ key, message: 'must not be empty' });
  else if (charCount(text) > maxChars) issues.push({ key, message: `must be at most ${maxChars} characters` });
  else if (!isWellFormed(text)) issues.push({ key, message: 'must be valid Unicode text' });
  else if (LABEL_FORBIDDEN.test(text)) {
    issues.push({ key, message: 'must not contain control characters, line breaks or bidirectional overrides' });
  } else if (!VISIBLE.test(text)) issues.push({ key, message: 'must contain a visible character' });
  return text;
}

/**
 * Chat text: CRLF becomes LF, surrounding whitespace is trimmed, then 1..2000 characters with
 * no control characters other than newline and tab.
 */
/** Chat text (and danmaku, with its own `max`): trimmed, 1..max characters, no control characters but newline and tab. */
export function checkChatText(value: string, max: number = ROOM_LIMITS.chatMaxChars): string {
  const text = value.replace(/\r\n/g, '\n').trim();
  const problem =
    text.length === 0
      ? 'must not be empty'
      : charCount(text) > max
        ? `must be at most ${max} characters`
        : !isWellFormed(text)
          ? 'must be valid Unicode text'
          : !MULTI_LINE.test(text)
            ? MULTI_LINE_CONTROL_MESSAGE
            : undefined;
  if (problem) throw AppError.invalid([{ key: 'text', message: problem }]);
  return text;
}

/** Runs of line breaks and tabs, which separate words: a space in a one-line name. */
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;
/** Shown for a user whose id has nothing visible either (ids are not checked for looks). */
const UNNAMED = 'unnamed';

/**
 * `text` made to follow the label rule: a run of line breaks or tabs becomes a space, every other
 * forbidden character is dropped, then trimmed and cut to `maxChars` characters. Undefined when
 * nothing visible is left.
 */
function sanitiseLabel(text: string, maxChars: number): string | undefined {
  const cleaned = text.replace(LINE_BREAKS, ' ').replace(LABEL_FORBIDDEN_ALL, '').trim();
  const cut = [...cleaned].slice(0, maxChars).join('').trim();
  return VISIBLE.test(cut) ? cut : undefined;
}

/**
 * The name a user is shown under to others (member lists, chat messages, bans): the caller's
 * name, else their id, under the same rule as room names. The name comes from the
 * authenticated identity, not from a form the user can correct, so it is sanitised rather
 * than refused: refusing would lock the user out of every room until their account name
 * changes. Forbidden characters are stripped and a name with nothing visible left falls back
 * to the id (itself sanitised).
 */
export function displayName(name: string | undefined, userId: string): string {
  const max = ROOM_LIMITS.nameMaxChars;
  return sanitiseLabel(name ?? '', max) ?? sanitiseLabel(userId, max) ?? UNNAMED;
}

export function checkHttpUrl(value: string, key: string, issues: FieldIssue[]): string {
  const text = value.trim();
  if (text.length === 0) {
    issues.push({ key, message: 'must not be empty' });
    return text;
  }
  if (text.length > ROOM_LIMITS.urlMaxChars) {
    issues.push({ key, message: `must be at most ${ROOM_LIMITS.urlMaxChars} characters` });
    return text;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    issues.push({ key, message: 'must be an absolute http or https URL' });
    return text;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    issues.push({ key, message: `must be an http or https URL, got scheme "${url.protocol.replace(/:$/, '')}"` });
  }
  return text;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, space and tab: no CR/LF (header injection) and nothing a proxy would mangle. */
const HEADER_VALUE = /^[\t\u0020-\u007e]*$/;
/** Connection-level headers the proxy sets itself; a stored value would break or smuggle requests. */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
]);

export function checkHeaders(headers: Record<string, string>, issues: FieldIssue[]): Record<string, string> {
  const entries = Object.entries(headers);
  if (entries.length > ROOM_LIMITS.headersMaxCount) {
    issues.push({ key: 'headers', message: `must have at most ${ROOM_LIMITS.headersMaxCount} entries` });
    return {};
  }
  const seen = new Set<string>();
  const checked: Record<string, string> = {};
  for (const [name, value] of entries) {
    const key = `headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) issues.push({ key, message: 'is not a valid HTTP header name' });
    else if (RESERVED_HEADERS.has(lower)) issues.push({ key, message: 'is set by the proxy and cannot be stored' });
    else if (seen.has(lower)) issues.push({ key, message: 'is given twice (header names are case-insensitive)' });
    else if (!HEADER_VALUE.test(value)) issues.push({ key, message: 'must be printable ASCII without line breaks' });
    else {
      seen.add(lower);
      checked[name] = value.trim();
    }
  }
  return checked;
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** A subtitle as a command gives it (contracts/room/subtitles.ts; an undefined field is absent). */
export type { SubtitleInput };

/** Uploaded subtitle files are named by a UUID (media/subtitles/subtitle-files.ts). */
const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Each track has exactly one source (url, fileId or stream), a label, an optional language tag
 * and format; at most one track is the room's default. Whether an uploaded file or an embedded
 * stream exists is decided when a player asks for the track (the file may be uploaded by
 * another server process, the media's streams are only known by reading it).
 */
export function checkSubtitles(subtitles: SubtitleInput[], issues: FieldIssue[]): Subtitle[] {
  if (subtitles.length > ROOM_LIMITS.subtitlesMaxCount) issues.push({ key: 'subtitles', message: `must have at most ${ROOM_LIMITS.subtitlesMaxCount} tracks` });
  const defaults = subtitles.flatMap((subtitle, index) => (subtitle.default ? [index] : []));
  if (defaults.length > 1) issues.push({ key: `subtitles.${defaults[1]}.default`, message: `only one track can be the default (track ${defaults[0]} already is)` });
  return subtitles.map((subtitle, index) => {
    const base = `subtitles.${index}`;
    const name = checkLabel(subtitle.name, `${base}.name`, ROOM_LIMITS.nameMaxChars, issues);
    const sources = [subtitle.url, subtitle.fileId, subtitle.stream].filter((source) => source !== undefined).length;
    if (sources !== 1) issues.push({ key: base, message: 'must have exactly one source: url, fileId or stream' });
    const out: Subtitle = { name };
    if (subtitle.url !== undefined) out.url = checkHttpUrl(subtitle.url, `${base}.url`, issues);
    if (subtitle.fileId !== undefined) {
      if (!FILE_ID.test(subtitle.fileId)) issues.push({ key: `${base}.fileId`, message: 'must be the id of a subtitle file uploaded to this room' });
      out.fileId = subtitle.fileId;
    }
    if (subtitle.stream !== undefined) out.stream = subtitle.stream;
    if (subtitle.language !== undefined) {
      if (!LANGUAGE_TAG.test(subtitle.language)) issues.push({ key: `${base}.language`, message: 'must be a language tag such as "en" or "pt-BR"' });
      out.language = subtitle.language;
    }
    if (subtitle.format !== undefined) out.format = subtitle.format;
    if (subtitle.default === true) out.default = true;
    return out;
  });
}

export const BUILTIN_PROVIDERS = ['direct', 'hls', 'live'] as const;

export function checkProvider(provider: string, issues: FieldIssue[]): string {
  if (!ROOM_LIMITS.providerPattern.test(provider)) {
    issues.push({
      key: 'provider',
      message: `must be ${BUILTIN_PROVIDERS.join(', ')} or a provider name of lowercase letters, digits, "_" and "-"`,
    });
  }
  return provider;
}

/**
 * A command's media fields as validated (an undefined field is absent). Flat, not the contract's
 * `MediaInput` (contracts/http/media-input.ts), which is a union by provider: an edit gives only
 * what it changes, of whichever kind, and the checks below name each field.
 */
export interface MediaInput {
  title?: string | undefined;
  url?: string | undefined;
  provider?: string | undefined;
  headers?: Record<string, string> | undefined;
  subtitles?: SubtitleInput[] | undefined;
  live?: boolean | undefined;
  proxy?: boolean | undefined;
}

/**
 * The `url` of a `live` item: this service's RTMP ingest is its source, so there is nothing
 * to fetch and the client gives none (one given is ignored). The value only names the item;
 * players get the stream's URLs from the play endpoint (media/providers/live.ts).
 */
export function liveItemUrl(mediaId: string): string {
  return `live:${mediaId}`;
}

/**
 * The `url` of an item added from a media library (`library:<libraryId>/<entry>?sig=...`, see
 * media/libraries/item-url.ts): not fetched as it is, so not an http URL. Only its form is checked
 * here; the `library` provider checks its signature (MediaChecker) when it is added or edited.
 */
function checkLibraryItemUrl(value: string, issues: FieldIssue[]): string {
  const text = value.trim();
  if (!text.startsWith('library:') || /\s/.test(text)) issues.push({ key: 'url', message: 'must be a library item URL (library:<libraryId>/<entry>?sig=...) as the library endpoints add it' });
  else if (text.length > ROOM_LIMITS.urlMaxChars) issues.push({ key: 'url', message: `must be at most ${ROOM_LIMITS.urlMaxChars} characters` });
  return text;
}

/**
 * The `url` of a file on each viewer's own disk (`local:<fingerprint>:<size>:<name>`,
 * contracts/room/local-file.ts): it names a file, it locates none, so it is no http URL. Only its
 * scheme and length are checked here; the `local` provider checks the rest (MediaChecker).
 */
function checkLocalItemUrl(value: string, issues: FieldIssue[]): string {
  const text = value.trim();
  if (!text.startsWith('local:')) issues.push({ key: 'url', message: 'must be a local file reference (local:<fingerprint>:<size>:<name>)' });
  else if (text.length > ROOM_LIMITS.urlMaxChars) issues.push({ key: 'url', message: `must be at most ${ROOM_LIMITS.urlMaxChars} characters` });
  return text;
}

/**
 * The `url` of a live stream the server pulls (provider `pull`): rtmp, rtsp, srt or an HLS
 * playlist, so not only http. The form is checked here (contracts/room/pull-source.ts); the
 * `pull` provider checks an address given as an IP literal against the address policy
 * (MediaChecker), and the gateway checks every address again when it pulls.
 */
function checkPullItemUrl(value: string, issues: FieldIssue[]): string {
  const text = value.trim();
  const problem = pullUrlProblem(text, ROOM_LIMITS.urlMaxChars);
  if (problem !== undefined) issues.push({ key: 'url', message: problem });
  return text;
}

/** Providers whose items are live streams whatever `live` says. */
const LIVE_PROVIDERS = new Set(['live', 'pull']);

/**
 * Checks the fields present in `input` and returns them normalised. A `live` provider implies
 * a live item, whatever `live` says, and its `url` is not checked (see liveItemUrl); a `pull`
 * item is live too and its url is a stream's (checkPullItemUrl).
 */
export function checkMediaFields(input: MediaInput): Partial<Omit<MediaItem, 'id' | 'addedBy' | 'addedAt'>> {
  const issues: FieldIssue[] = [];
  const out: Partial<Omit<MediaItem, 'id' | 'addedBy' | 'addedAt'>> = {};
  if (input.title !== undefined) out.title = checkLabel(input.title, 'title', ROOM_LIMITS.titleMaxChars, issues);
  if (input.url !== undefined && input.provider === 'library') out.url = checkLibraryItemUrl(input.url, issues);
  else if (input.url !== undefined && input.provider === 'local') out.url = checkLocalItemUrl(input.url, issues);
  else if (input.url !== undefined && input.provider === 'pull') out.url = checkPullItemUrl(input.url, issues);
  else if (input.url !== undefined && input.provider !== 'live') out.url = checkHttpUrl(input.url, 'url', issues);
  if (input.provider !== undefined) out.provider = checkProvider(input.provider, issues);
  if (input.headers !== undefined) out.headers = checkHeaders(input.headers, issues);
  if (input.subtitles !== undefined) out.subtitles = checkSubtitles(input.subtitles, issues);
  if (input.live !== undefined) out.live = input.live;
  if (input.proxy !== undefined) out.proxy = input.proxy;
  if (out.provider !== undefined && LIVE_PROVIDERS.has(out.provider)) out.live = true;
  if (issues.length > 0) throw AppError.invalid(issues);
  return out;
}

/** `checkMediaFields` for a new item: a `url` is required unless the item is live. */
export function checkNewMedia(input: MediaInput): Partial<Omit<MediaItem, 'id' | 'addedBy' | 'addedAt'>> {
  const fields = checkMediaFields(input);
  if (fields.provider !== 'live' && fields.url === undefined) {
    throw AppError.invalid([{ key: 'url', message: 'is required (except for a live item)' }]);
  }
  return fields;
}

/**
 * Checks per-role overrides: known names only, no administration permissions for members and
 * guests, and the guest list within the guest ceiling (refused here so the admin sees why;
 * both are applied again on every read). Who may change which role: override-authority.ts.
 */
export function checkPermissionOverrides(
  input: Partial<Record<RoomRole, string[] | null | undefined>>,
  current: PermissionOverrides,
): PermissionOverrides {
  const issues: FieldIssue[] = [];
  const next: PermissionOverrides = { ...current };
  for (const role of ['admin', 'member', 'guest'] as const) {
    const list = input[role];
    if (list === undefined) continue;
    if (list === null) {
      delete next[role];
      continue;
    }
    const key = `permissionOverrides.${role}`;
    const unknown = list.filter((name) => !isPermission(name));
    if (unknown.length > 0) {
      issues.push({ key, message: `unknown permission ${unknown.map((name) => `"${name}"`).join(', ')}` });
      continue;
    }
    const permissions = [...new Set(list as Permission[])];
    const administration = role === 'admin' ? [] : permissions.filter(isAdministration);
    if (administration.length > 0) {
      issues.push({ key, message: `${administration.join(', ')} belong to the admin role; make the user an admin instead` });
      continue;
    }
    if (role === 'guest') {
      const above = permissions.filter((name) => !isWithinGuestCeiling(name));
      if (above.length > 0) {
        issues.push({ key, message: `above the guest ceiling: ${above.join(', ')}` });
        continue;
      }
    }
    next[role] = permissions;
  }
  if (issues.length > 0) throw AppError.invalid(issues);
  return next;
}
