/**
 * A playlist item as a client gives it over HTTP, with the room's rules stated as the schema
 * (actors/room/validate.ts and each provider's check): by `provider`, which URL it takes (an http
 * or https URL for files, HLS and DASH; a YouTube video link; a file's URL on an Alist server; a
 * local file reference; none for a live item), the header names and values the proxy may send,
 * and subtitle tracks with exactly one source. Patterns are narrower than the WHATWG URL parser
 * where its rules are not regular (internationalised names, credentials in URLs): what the
 * document admits the room accepts, and the schema refuses the rest by name. A leaf module.
 */
import { z } from 'zod';
import { labelText, oneLineChars } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { SubtitleFormat } from '../room/subtitles.js';
import { PULL_SCHEMES, pullUrlProblem } from '../room/pull-source.js';

// The white space String.prototype.trim removes that the one-line rule lets through.
const SPACE = '[ \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*';
const SCHEME = '[Hh][Tt][Tt][Pp][Ss]?://';
/** A DNS label as the URL parser takes it; an xn-- label would be decoded (and refused when not Punycode). */
const LABEL = '(?![Xx][Nn]--)[A-Za-z0-9_-]+';
/** The last label starts with no digit, so the name never reads as an IPv4 address (1.2.3.999, a.0x1). */
const LAST_LABEL = '(?![Xx][Nn]--)[A-Za-z_-][A-Za-z0-9_-]*';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${OCTET}(?:\\.${OCTET}){3})`;
/** RFC 4291 text forms, an embedded IPv4 address included; no zone. */
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|');
const HOST = `(?:(?:${LABEL}\\.)*${LAST_LABEL}\\.?|${OCTET}(?:\\.${OCTET}){3}|\\[(?:${IPV6})\\])`;
const PORT = '(?::0*(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?)?';
/** Path, query and fragment: any character of the Basic Multilingual Plane but controls (so a length in UTF-16 units is one in characters). */
const REST_CHAR = '[\\u0020-\\u007e\\u00a0-\\ud7ff\\ue000-\\uffff]';
/** The same but white space, which the rest ends without (it is trimmed): the white space after it is the pattern's last part alone, so matching stays linear. */
const REST_END = '[\\u0021-\\u007e\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ud7ff\\ue000-\\ufefe\\uff00-\\uffff]';
const REST = `(?:${REST_CHAR}*${REST_END})?`;

/** An absolute http or https URL as the room parses it (scheme, host, optional port, then anything), white space around it trimmed. */
export const HTTP_URL = new RegExp(`^${SPACE}${SCHEME}${HOST}${PORT}(?:[/?#\\\\]${REST})?${SPACE}$`, 'u');
/** A path segment's character: printable ASCII or the rest of the BMP, but white space, `/?#%\` (and `.` to start it: no dot segments). */
const SEGMENT_START = '[\\u0021\\u0022\\u0024\\u0026-\\u002d\\u0030-\\u003e\\u0040-\\u005b\\u005d-\\u007e\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ud7ff\\ue000-\\ufefe\\uff00-\\uffff]';
const SEGMENT = `${SEGMENT_START}(?:${SEGMENT_START}|\\.)*`;
/**
 * A file on an Alist server: an http URL whose path names something below the root once the
 * provider strips /d or /p (so not /, /d/ or /p/), without percent signs or dot segments (the
 * provider decodes the path) or white space.
 */
const ALIST_URL = new RegExp(`^${SPACE}${SCHEME}${HOST}${PORT}/(?![dp]/?(?:[?#]|${SPACE}$))${SEGMENT}(?:/${SEGMENT})*/?(?:[?#]${REST})?${SPACE}$`, 'u');
/** Any character of the Basic Multilingual Plane but white space and controls. */
const NON_SPACE = '[\\u0021-\\u007e\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ud7ff\\ue000-\\ufefe\\uff00-\\uffff]';
/**
 * An item of a library: `library:<libraryId>/<entry>?sig=...` as the library endpoints make it.
 * The form is all a schema can state: the server signs it, and refuses a signature it did not make.
 */
const LIBRARY_URL = new RegExp(`^${SPACE}library:${NON_SPACE}*${SPACE}$`, 'u');
const YOUTUBE_HOST = '(?:(?:www\\.|m\\.|music\\.)?youtube\\.com|(?:www\\.)?youtube-nocookie\\.com)';
const VIDEO_ID = '[A-Za-z0-9_-]{11}';
/** A YouTube video: watch?v=<id> first in the query, youtu.be/<id>, /embed/, /shorts/, /live/ or /v/<id>. */
const YOUTUBE_URL = new RegExp(
  `^${SPACE}[Hh][Tt][Tt][Pp][Ss]?://(?:${YOUTUBE_HOST}/(?:watch\\?v=${VIDEO_ID}(?:&[A-Za-z0-9_.~=&%-]*)?|(?:embed|shorts|live|v)/${VIDEO_ID}(?:\\?[A-Za-z0-9_.~=&%-]*)?)|youtu\\.be/${VIDEO_ID}(?:\\?[A-Za-z0-9_.~=&%-]*)?)${SPACE}$`,
  'u',
);
const HEX = '[0-9A-Fa-f]';
const CONT = '%[89AaBb][0-9A-Fa-f]';
/**
 * One character of a file name as encodeURIComponent writes it: an unreserved character, or the
 * UTF-8 of a character in %XX (RFC 3629's well-formed sequences), never a control (C0, DEL, C1)
 * or a line or paragraph separator (U+2028, U+2029), which the local provider refuses.
 */
const NAME_UNIT = [
  "[A-Za-z0-9_.!~*'()-]",
  `%[2-6]${HEX}|%7[0-9A-Ea-e]`,
  `%[Cc]2%[AaBb]${HEX}|%(?:[Cc][3-9A-Fa-f]|[Dd]${HEX})${CONT}`,
  `%[Ee]0%[AaBb]${HEX}${CONT}`,
  `%[Ee]2%80%(?:[89]${HEX}|[Aa][0-7A-Fa-f]|[Bb]${HEX})`,
  `%[Ee]2%(?:8[1-9A-Fa-f]|[9AaBb]${HEX})${CONT}`,
  `%(?:[Ee][13-9A-Ca-c]|[Ee][EeFf])${CONT}${CONT}`,
  `%[Ee][Dd]%[89]${HEX}${CONT}`,
  `%[Ff]0%(?:9${HEX}|[AaBb]${HEX})${CONT}${CONT}|%[Ff][1-3]${CONT}${CONT}${CONT}|%[Ff]4%8${HEX}${CONT}${CONT}`,
].join('|');
/** White space String.prototype.trim removes, as encodeURIComponent writes it. */
const NAME_SPACE = '%20|%[Cc]2%[Aa]0|%[Ee]1%9[Aa]%80|%[Ee]2%80%(?:8[0-9Aa]|[Aa][Ff])|%[Ee]2%81%9[Ff]|%[Ee]3%80%80|%[Ee][Ff]%[Bb][Bb]%[Bb][Ff]';
/**
 * `local:<fingerprint>:<size>:<name>` (contracts/room/local-file.ts): 64 lowercase hex digits,
 * a size of at most 15 digits, the name percent-encoded: 1..255 characters, something but
 * white space among them.
 */
const LOCAL_URL = new RegExp(
  `^${SPACE}local:[0-9a-f]{64}:[1-9][0-9]{0,14}:(?=(?:${NAME_SPACE})*(?!${NAME_SPACE})(?:${NAME_UNIT}))(?:${NAME_UNIT}){1,255}${SPACE}$`,
  'u',
);

/**
 * A local file reference, checked part by part with the local provider's words (each check
 * stops the rest: one issue naming url); together they are LOCAL_URL.
 */
function localUrl(): z.ZodString {
  return z
    .string()
    .max(ROOM_LIMITS.urlMaxChars, { abort: true })
    .regex(new RegExp(`^${SPACE}local:`, 'u'), { error: 'must be a local file reference (local:<fingerprint>:<size>:<name>)', abort: true })
    .regex(new RegExp(`^${SPACE}local:[0-9a-f]{64}:`, 'u'), { error: "must start with the file's fingerprint as 64 lowercase hex digits (SHA-256)", abort: true })
    .regex(new RegExp(`^${SPACE}local:[^:]*:[1-9][0-9]{0,14}:`, 'u'), { error: "must give the file's size as a positive whole number of bytes (at most 15 digits)", abort: true })
    .regex(LOCAL_URL, {
      error: "must end with the file's name percent-encoded (encodeURIComponent): 1 to 255 characters, not only white space, without control characters",
      abort: true,
    })
    .meta({ description: 'A local file reference local:<fingerprint>:<size>:<name> (the name percent-encoded, as encodeURIComponent writes it)' });
}

const title = labelText({ maxChars: ROOM_LIMITS.titleMaxChars, totalChars: ROOM_LIMITS.titleMaxChars * 2 }).meta({
  description: `1..${ROOM_LIMITS.titleMaxChars} characters after trimming, something visible among them`,
});

/** Header names the proxy sets itself, which an item may not carry (actors/room/validate.ts), in any case. */
const RESERVED_HEADERS = ['host', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'keep-alive', 'proxy-authorization', 'proxy-connection'];
const anyCase = (word: string): string => [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c === '-' ? '-' : c)).join('');
const HEADER_NAME = new RegExp(`^(?!(?:${RESERVED_HEADERS.map(anyCase).join('|')})$)[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${ROOM_LIMITS.headerNameMaxChars}}$`);
const headers = z
  .record(
    z.string().regex(HEADER_NAME, { error: 'must be an HTTP header name the proxy does not set itself' }),
    z
      .string()
      .regex(new RegExp(`^[\\t\\u0020-\\u007e]{0,${ROOM_LIMITS.headerValueMaxChars}}$`), { error: 'must be printable ASCII without line breaks' }),
  )
  .refine((value) => Object.keys(value).length <= ROOM_LIMITS.headersMaxCount, { error: `must have at most ${ROOM_LIMITS.headersMaxCount} entries` })
  .meta({
    description: `Upstream request headers, at most ${ROOM_LIMITS.headersMaxCount}; a name given twice in different case is refused`,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.maxProperties = ROOM_LIMITS.headersMaxCount;
    },
  });
/** The providers whose items never fetch with headers. */
const noHeaders = z.strictObject({}).meta({ description: 'None: this provider sends no request of its own' });

/** A subtitle track: a name and exactly one source. */
const trackFields = {
  name: labelText({ maxChars: ROOM_LIMITS.nameMaxChars, totalChars: ROOM_LIMITS.nameMaxChars * 2 }),
  language: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/, { error: 'must be a language tag such as "en" or "pt-BR"' })
    .optional(),
  format: SubtitleFormat.optional(),
  default: z.boolean().optional().meta({ description: 'The room\'s default track: at most one per item' }),
};
const SOURCES = ['url', 'fileId', 'stream'] as const;
const track = z
  .strictObject({
    ...trackFields,
    url: z.string().max(ROOM_LIMITS.urlMaxChars, { abort: true }).regex(HTTP_URL, { error: 'must be an absolute http or https URL' }).optional(),
    fileId: z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: 'must be the id of a subtitle file uploaded to this room' })
      .optional()
      .meta({ description: 'A file uploaded to this room (POST /api/rooms/{roomId}/subtitle-files)' }),
    stream: z.number().int().min(0).max(1023).optional().meta({ description: "A subtitle stream of the item's own media" }),
  })
  // One object (not a union), so a field's problem is named by its field.
  .refine((one) => SOURCES.filter((source) => one[source] !== undefined).length === 1, { error: 'must have exactly one source: url, fileId or stream' })
  .meta({
    id: 'SubtitleTrackInput',
    description: "One track with exactly one source: url, fileId (an upload to this room) or stream (of the item's own media)",
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.oneOf = SOURCES.map((source) => ({ required: [source] }));
    },
  });
const subtitles = z
  .array(track)
  .max(ROOM_LIMITS.subtitlesMaxCount)
  // Named at the second default, as the room names it.
  .superRefine((tracks, ctx) => {
    const defaults = tracks.flatMap((one, index) => (one.default === true ? [index] : []));
    if (defaults.length > 1) ctx.addIssue({ code: 'custom', message: `only one track can be the default (track ${defaults[0]} already is)`, path: [defaults[1]!, 'default'] });
  })
  .meta({
    description: `At most ${ROOM_LIMITS.subtitlesMaxCount} tracks, at most one default`,
    // JSON Schema 2020-12: at most one element with default true.
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.contains = { type: 'object', properties: { default: { const: true } }, required: ['default'] };
      jsonSchema.minContains = 0;
      jsonSchema.maxContains = 1;
    },
  });

const common = {
  subtitles: subtitles.optional(),
  live: z.boolean().optional(),
  proxy: z.boolean().optional().meta({ description: 'Play through the media proxy (needs proxy.movieProxy / proxy.liveProxy)' }),
};

/** A live stream's URL the server pulls: the room's rules (contracts/room/pull-source.ts), each problem in its words. */
function pullUrl(): z.ZodString {
  return z
    .string()
    .max(ROOM_LIMITS.urlMaxChars, { abort: true })
    .superRefine((value, ctx) => {
      const problem = pullUrlProblem(value.trim(), ROOM_LIMITS.urlMaxChars);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ description: `A live stream's URL: ${PULL_SCHEMES.join(', ')} (http and https for an HLS playlist); no user name or password for rtmp and srt, only the srt options streamid, passphrase, pbkeylen, latency` });
}

/** A url field of `pattern`, at most the room's URL length. */
function url(pattern: RegExp, what: string): z.ZodString {
  // A text over the limit is refused before the pattern reads it.
  return z.string().max(ROOM_LIMITS.urlMaxChars, { abort: true }).regex(pattern, { error: `must be ${what}` }).meta({ description: `${what[0]!.toUpperCase()}${what.slice(1)}` });
}

const WEB_URL = 'an absolute http or https URL (a host name, an IPv4 address or a bracketed IPv6 address; no user name or password)';

/**
 * The item kinds by `provider`, each with the url it takes: `need` makes a url required (a new
 * item) or optional (changes); `name` is the title's schema; `extra` joins each kind.
 */
function variants<U extends z.ZodType, T extends z.ZodType, S extends z.ZodRawShape>(need: (url: z.ZodString) => U, name: T, extra: S) {
  const fields = { ...common, title: name, ...extra };
  return [
    z.strictObject({
      ...fields,
      provider: z.enum(['direct', 'hls', 'dash']).optional().meta({ description: 'direct (the default: a media file), hls or dash' }),
      url: need(url(HTTP_URL, WEB_URL)),
      headers: headers.optional(),
    }),
    z.strictObject({
      ...fields,
      provider: z.literal('live').meta({ description: 'A livestream published to this server (RTMP); the server names it live:<mediaId>' }),
      url: oneLineChars(ROOM_LIMITS.urlMaxChars).optional().meta({ description: 'Ignored: the server names the stream live:<mediaId>' }),
      headers: headers.optional(),
    }),
    z.strictObject({
      ...fields,
      provider: z.literal('pull').meta({ description: 'A live stream this server pulls from elsewhere (RTMP, RTSP, SRT or an HLS playlist) and serves as HTTP-FLV and HLS' }),
      url: need(pullUrl()),
      headers: noHeaders.optional(),
    }),
    z.strictObject({
      ...fields,
      provider: z.literal('youtube').meta({ description: 'A YouTube video, played by its embedded player (while youtube.iframe_api_url is set)' }),
      url: need(url(YOUTUBE_URL, 'a YouTube video link (watch?v=<id> with v first, youtu.be/<id>, /embed/, /shorts/, /live/ or /v/<id>)')),
      headers: noHeaders.optional(),
    }),
    z.strictObject({
      ...fields,
      provider: z.literal('alist'),
      url: need(url(ALIST_URL, "a file's URL on an Alist server (/d/<path>, /p/<path> or /<path>; no percent sign, white space or dot segment in the path)")),
      headers: headers.optional(),
    }),
    z.strictObject({
      ...fields,
      provider: z.literal('library').meta({ description: 'A file of a connected library, as POST /api/rooms/{roomId}/libraries/{libraryId}/add adds it (signed by the server)' }),
      url: need(url(LIBRARY_URL, 'a library item URL (library:<libraryId>/<entry>?sig=...) as the library endpoints add it')),
      headers: noHeaders.optional(),
    }),
    z.strictObject({
      ...fields,
      provider: z.literal('local').meta({ description: 'A file on each viewer\'s own disk' }),
      url: need(localUrl()),
      headers: noHeaders.optional(),
    }),
  ] as const;
}

const required = (schema: z.ZodString): z.ZodString => schema;
const optional = (schema: z.ZodString): z.ZodOptional<z.ZodString> => schema.optional();

const KINDS =
  'By provider: direct (default), hls and dash take an http or https URL; live none (the server names the stream); pull a live stream\'s rtmp, rtsp, srt or HLS URL; youtube a YouTube video link; alist a file\'s URL on an Alist server; local a local file reference; library a URL the library endpoints signed (POST /api/rooms/{roomId}/libraries/{libraryId}/add adds them).';

/** A new item, with `extra` fields (index, folderId) on every kind. */
export function newMedia<S extends z.ZodRawShape>(extra: S) {
  return z.discriminatedUnion('provider', variants(required, title, extra)).meta({ description: KINDS });
}

/** The fields of an item to change. Without `provider`, a url is checked as an http URL (and by the item's own provider). */
export const MediaChanges = z.discriminatedUnion('provider', variants(optional, title.optional(), {})).meta({ id: 'MediaChanges', description: KINDS });
export const MediaInput = newMedia({}).meta({ id: 'MediaInput' });
