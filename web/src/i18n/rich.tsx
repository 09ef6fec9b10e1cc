/**
 * A catalogue sentence with elements inside it ("<b>Ann</b> mentioned you in <b>Films</b>"): the
 * translation decides where each element goes, so no sentence is glued from parts whose order
 * only fits English. Each `{{name}}` of `parts` becomes that element.
 */
import { Fragment, type ComponentChildren } from 'preact';
import type { ParseKeys } from 'i18next';
import { t } from './i18n.js';
import { useT } from './use-t.js';

// A private-use character cannot occur in a catalogue sentence or in a value put into one.
const MARK = '\uE000';

export function Rich(props: { k: ParseKeys; parts: Record<string, ComponentChildren>; values?: Record<string, string | number> }) {
  useT();
  const markers = Object.fromEntries(Object.keys(props.parts).map((name) => [name, `${MARK}${name}${MARK}`]));
  const text = (t as (key: string, options: object) => string)(props.k, { ...props.values, ...markers });
  const pieces = text.split(MARK);
  return (
    <>
      {pieces.map((piece, index) => (index % 2 === 1 ? <Fragment key={index}>{props.parts[piece]}</Fragment> : piece))}
    </>
  );
}
