import test from 'ava';
import { fitRows, renderTable, wrapText } from '../../cli/output.js';

test('wrapText breaks after a comma or a space when it can, anywhere when it must, and loses nothing', (t) => {
  const json = JSON.stringify([{ urls: ['stun:stun.l.google.com:19302'] }, { urls: ['stun:stun1.l.google.com:19302'] }]);
  const wrapped = wrapText(json, 50).split('\n');
  t.is(wrapped.join(''), json);
  for (const line of wrapped) t.true(line.length <= 50, line);
  t.true(wrapped.slice(0, -1).some((line) => line.endsWith(',')), 'a break after a comma');

  const word = 'x'.repeat(25);
  t.deepEqual(wrapText(word, 10).split('\n'), ['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx']);
  t.is(wrapText('short', 10), 'short');
});

test('fitRows keeps the table within the width, giving the wrapped columns what the others leave', (t) => {
  const head = ['key', 'value', 'rule'];
  const rows = [
    ['a.long.key.name', 'v'.repeat(150), 'one of: a, b'],
    ['b', 'short', 'a rule that is rather long, longer than its share would be'],
  ];
  const table = renderTable(head, fitRows(head, rows, 80, [1, 2]));
  for (const line of table.trimEnd().split('\n')) t.true(line.length <= 80, line);
  t.true(table.includes('a.long.key.name'), 'columns that do not wrap stay whole on one line');
  t.is(table.match(/v{5,}/g)?.join(''), 'v'.repeat(150));
});
