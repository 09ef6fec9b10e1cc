import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A page's heading and document title. Focus moves to the heading when the page opens, so a
 * screen reader announces where a navigation led (an SPA has no page load to do it).
 */
export function Page(props: { title: string; children?: ComponentChildren; actions?: ComponentChildren; wide?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · svc`;
  }, [props.title]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section class={props.wide ? 'page page-wide' : 'page'} aria-labelledby="page-title">
      <header class="page-header">
        <h1 id="page-title" ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}
