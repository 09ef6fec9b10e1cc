/**
 * Rewrites an MPEG-DASH manifest (MPD) so every resource it names comes through the proxy, as
 * hls-rewrite.ts does for HLS. An HLS playlist names each segment; an MPD usually names a
 * template (`SegmentTemplate@media="chunk-$RepresentationID$-$Number%05d$.m4s"`) that the
 * player fills in, so single URLs cannot be signed. What is signed instead is the folder a
 * template or `BaseURL` points into: `signFolder(folderUrl)` returns a proxy URL ending in `/`
 * whose grant lets the proxy read anything under that folder (and nothing above it), and the
 * template's file part follows it unchanged for the player to fill in.
 *
 * Every `BaseURL` and every URL attribute (`SegmentTemplate` media, initialization, index,
 * bitstreamSwitching; `SegmentURL` media and index; `sourceURL` of `Initialization`,
 * `RepresentationIndex`, `BitstreamSwitching`) is made absolute against the BaseURLs above
 * it and the manifest's own (final) URL, then rewritten. `Location` (where a live manifest is
 * fetched again) is dropped, so the player keeps asking the proxy for it. A manifest with a
 * DOCTYPE is refused: MPDs have none, and its entities could expand without bound.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { AppError } from '../../errors/index.js';

/** One node of fast-xml-parser's ordered tree: `{ tag: children, ':@': attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

const ATTRIBUTE_PREFIX = '@_';
const XML_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  commentPropName: '#comment',
} as const;

/** Attributes holding a URL (or a URL template), by element. */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  SegmentTemplate: ['media', 'initialization', 'index', 'bitstreamSwitching'],
  SegmentURL: ['media', 'index'],
  Initialization: ['sourceURL'],
  RepresentationIndex: ['sourceURL'],
  BitstreamSwitching: ['sourceURL'],
};

export function isManifestReply(contentType: string | undefined, url: string): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/dash+xml') return true;
  try {
    return /\.mpd$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** An element's name without its namespace prefix (`mpd:BaseURL` is a BaseURL). */
function localName(tag: string): string {
  const colon = tag.indexOf(':');
  return colon === -1 ? tag : tag.slice(colon + 1);
}

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@' && !key.startsWith('#') && !key.startsWith('?'));
}

function textOf(children: XmlNode[]): string {
  return children.map((child) => (typeof child['#text'] === 'string' ? child['#text'] : '')).join('');
}

export function rewriteManifest(text: string, manifestUrl: string, signFolder: (folderUrl: string) => string): string {
  if (/<!DOCTYPE/i.test(text)) throw new AppError('bad_gateway', 'the upstream DASH manifest has a DOCTYPE, which manifests never have');
  let tree: XmlNode[];
  try {
    tree = new XMLParser(XML_OPTIONS).parse(text) as XmlNode[];
  } catch (error) {
    throw new AppError('bad_gateway', `the upstream DASH manifest is not XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!tree.some((node) => localName(tagOf(node) ?? '') === 'MPD')) throw new AppError('bad_gateway', 'the upstream DASH manifest has no MPD element');

  const signed = new Map<string, string>();
  /** `value` (a URL or a template) made absolute against `base`, as a proxy URL: the signed folder, then the file part unchanged. */
  const proxied = (value: string, base: string): string => {
    const trimmed = value.trim();
    // An absolute URL of another scheme (data:, a DRM scheme) is nothing the proxy could fetch.
    if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^https?:/i.test(trimmed)) return value;
    // The folder part ends at the last `/` before any template identifier: what follows is
    // the player's to fill in, and resolving it as a URL could re-encode its `%0Nd` format.
    const templateAt = trimmed.indexOf('$');
    const head = templateAt === -1 ? trimmed : trimmed.slice(0, templateAt);
    const slash = head.lastIndexOf('/');
    const folderPart = trimmed.slice(0, slash + 1);
    const filePart = trimmed.slice(slash + 1);
    let folder: URL;
    try {
      folder = new URL(folderPart === '' ? './' : folderPart, base);
    } catch {
      return value;
    }
    if (folder.protocol !== 'http:' && folder.protocol !== 'https:') return value;
    folder.search = '';
    folder.hash = '';
    let prefix = signed.get(folder.href);
    if (prefix === undefined) {
      prefix = signFolder(folder.href);
      signed.set(folder.href, prefix);
    }
    return `${prefix}${filePart}`;
  };

  const walk = (nodes: XmlNode[], inherited: string): void => {
    // A BaseURL child sets the base for its siblings' attributes and for everything below.
    let base = inherited;
    const baseNode = nodes.find((node) => localName(tagOf(node) ?? '') === 'BaseURL');
    if (baseNode) {
      const children = baseNode[tagOf(baseNode)!] as XmlNode[];
      try {
        base = new URL(textOf(children).trim(), inherited).href;
      } catch {
        base = inherited;
      }
    }
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      const tag = tagOf(node);
      if (tag === undefined) continue;
      const name = localName(tag);
      const children = node[tag] as XmlNode[];
      if (name === 'Location') {
        nodes.splice(i, 1);
        continue;
      }
      if (name === 'BaseURL') {
        node[tag] = [{ '#text': proxied(textOf(children), inherited) }];
        continue;
      }
      const attributes = node[':@'] as Record<string, string> | undefined;
      for (const attribute of URL_ATTRIBUTES[name] ?? []) {
        const value = attributes?.[ATTRIBUTE_PREFIX + attribute];
        if (attributes && value !== undefined) attributes[ATTRIBUTE_PREFIX + attribute] = proxied(value, base);
      }
      walk(children, base);
    }
  };
  walk(tree, manifestUrl);
  return new XMLBuilder({ ...XML_OPTIONS, suppressEmptyNode: true }).build(tree);
}
