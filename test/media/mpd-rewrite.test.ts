/**
 * The DASH manifest rewrite (media/proxy/mpd-rewrite.ts): every URL a player would fetch ends
 * up under a signed folder of the proxy, templates intact, resolved against the right BaseURL.
 */
import test from 'ava';
import { rewriteManifest } from '../../media/proxy/mpd-rewrite.js';

const MANIFEST_URL = 'https://media.example/shows/ep1/manifest.mpd';
/** A stand-in signer: the folder it was asked for, visible in the result. */
const sign = (folder: string): string => `/media/proxy/[${folder}]/`;

test('templates relative to the manifest are rewritten under its folder and keep their identifiers for the player', (t) => {
  const out = rewriteManifest(
    `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period><AdaptationSet><Representation id="v1">` +
      `<SegmentTemplate initialization="init-$RepresentationID$.m4s" media="video/chunk-$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>` +
      `</Representation></AdaptationSet></Period></MPD>`,
    MANIFEST_URL,
    sign,
  );
  t.true(out.includes('initialization="/media/proxy/[https://media.example/shows/ep1/]/init-$RepresentationID$.m4s"'), out);
  t.true(out.includes('media="/media/proxy/[https://media.example/shows/ep1/video/]/chunk-$RepresentationID$-$Number%05d$.m4s"'), out);
  t.true(out.includes('startNumber="1"'));
});

test('nested BaseURLs resolve against each other: an absolute one on another host, a relative one below it, and ".." above the manifest', (t) => {
  const out = rewriteManifest(
    `<MPD><BaseURL>https://cdn.example/a/</BaseURL><Period><AdaptationSet><BaseURL>b/</BaseURL>` +
      `<Representation id="1"><SegmentList><Initialization sourceURL="init.mp4"/><SegmentURL media="s1.m4s"/><SegmentURL media="../up.m4s"/></SegmentList></Representation>` +
      `</AdaptationSet></Period><Period><AdaptationSet><Representation id="2"><BaseURL>../../other/file.mp4</BaseURL><SegmentBase indexRange="0-99"/></Representation></AdaptationSet></Period></MPD>`,
    MANIFEST_URL,
    sign,
  );
  t.true(out.includes('<BaseURL>/media/proxy/[https://cdn.example/a/]/</BaseURL>'), out);
  t.true(out.includes('<BaseURL>/media/proxy/[https://cdn.example/a/b/]/</BaseURL>'), out);
  t.true(out.includes('sourceURL="/media/proxy/[https://cdn.example/a/b/]/init.mp4"'), out);
  t.true(out.includes('media="/media/proxy/[https://cdn.example/a/b/]/s1.m4s"'));
  t.true(out.includes('media="/media/proxy/[https://cdn.example/a/]/up.m4s"'), 'a parent folder gets its own grant');
  // The second period's BaseURL is relative to the MPD-level one (https://cdn.example/a/).
  t.true(out.includes('<BaseURL>/media/proxy/[https://cdn.example/other/]/file.mp4</BaseURL>'), out);
  t.true(out.includes('indexRange="0-99"'));
});

test('Location is dropped (the player must refresh through the proxy); non-http URLs are left alone', (t) => {
  const out = rewriteManifest(
    `<MPD type="dynamic"><Location>https://media.example/live.mpd</Location><Period><AdaptationSet><Representation id="1">` +
      `<SegmentTemplate media="data:,x"/></Representation></AdaptationSet></Period></MPD>`,
    MANIFEST_URL,
    sign,
  );
  t.false(out.includes('Location'));
  t.true(out.includes('media="data:,x"'));
});

test('a manifest with a DOCTYPE, one that is not XML and one without an MPD are refused as bad gateway answers', (t) => {
  for (const text of ['<!DOCTYPE MPD [<!ENTITY a "aaaa">]><MPD>&a;</MPD>', 'not xml <<<', '<html><body/></html>']) {
    const error = t.throws(() => rewriteManifest(text, MANIFEST_URL, sign));
    t.is((error as { code?: string }).code, 'bad_gateway', text);
  }
});
