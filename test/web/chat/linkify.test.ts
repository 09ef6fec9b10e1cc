import test from 'ava';
import { linkify, type TextPiece } from '../../../web/src/chat/linkify.js';

const links = (text: string) => linkify(text).filter((piece): piece is Extract<TextPiece, { kind: 'link' }> => piece.kind === 'link');

test('http and https addresses become links; the text around them stays, in order', (t) => {
  t.deepEqual(linkify('see https://example.com/a?b=1#c now'), [
    { kind: 'text', text: 'see ' },
    { kind: 'link', text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' },
    { kind: 'text', text: ' now' },
  ]);
  t.deepEqual(links('HTTP://Example.com and http://x.test:8080/p').map((l) => l.href), ['http://example.com/', 'http://x.test:8080/p']);
  t.deepEqual(linkify('no links here'), [{ kind: 'text', text: 'no links here' }]);
  t.deepEqual(linkify(''), []);
});

test('other schemes stay text: javascript:, data:, file:, ftp:, and addresses without a scheme', (t) => {
  for (const text of ['javascript:alert(1)', 'JaVaScRiPt:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'ftp://example.com/', 'www.example.com', 'javascript://example.com/%0Aalert(1)']) {
    t.deepEqual(links(text), [], text);
    t.is(linkify(text).map((piece) => piece.text).join(''), text, 'the text is kept whole');
  }
  t.deepEqual(links('xhttps://example.com'), [], 'a scheme inside a word is not a link');
  t.deepEqual(links('https://'), [], 'a scheme alone is not a link');
});

test('sentence punctuation after a link is not part of it', (t) => {
  for (const [text, link] of [
    ['go to https://example.com.', 'https://example.com'],
    ['https://example.com/a, then', 'https://example.com/a'],
    ['(see https://example.com/x)', 'https://example.com/x'],
    ['really? https://example.com/?q=1!', 'https://example.com/?q=1'],
    ['"https://example.com/q"', 'https://example.com/q'],
    ['https://example.com/…', 'https://example.com/'],
  ] as const) {
    t.deepEqual(links(text).map((l) => l.text), [link], text);
    t.is(linkify(text).map((piece) => piece.text).join(''), text);
  }
});

test('brackets the link opened are part of it', (t) => {
  t.deepEqual(links('https://en.wikipedia.org/wiki/Heat_(1995_film)').map((l) => l.text), ['https://en.wikipedia.org/wiki/Heat_(1995_film)']);
  t.deepEqual(links('(https://en.wikipedia.org/wiki/Heat_(1995_film))').map((l) => l.text), ['https://en.wikipedia.org/wiki/Heat_(1995_film)']);
  t.deepEqual(links('[https://example.com/a[1]]').map((l) => l.text), ['https://example.com/a[1]']);
});

test('internationalised domain names link to their punycode form and show as written', (t) => {
  const [link] = links('https://bücher.example/straße ok');
  t.is(link?.text, 'https://bücher.example/straße');
  t.is(link?.href, 'https://xn--bcher-kva.example/stra%C3%9Fe');
});

test('a link ends at a space, a quote or an angle bracket; markup stays text', (t) => {
  t.deepEqual(links('<a href="https://example.com/x">hi</a>').map((l) => l.text), ['https://example.com/x']);
  t.deepEqual(links('https://a.example/<script>').map((l) => l.text), ['https://a.example/']);
  t.deepEqual(links('one https://a.example two https://b.example').map((l) => l.href), ['https://a.example/', 'https://b.example/']);
});
