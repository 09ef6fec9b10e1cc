/**
 * The administration lists (users, rooms, reviews) in one shape: a filter form, the error, a
 * status line (loading, how many, or why there is nothing), the items as table rows or as cards,
 * and "Show more" when the server has another page. At phone width the filters wrap one to a
 * line and a table scrolls inside its own labelled region, so the page itself never does.
 */
import type { ComponentChildren } from 'preact';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useT } from '../../i18n/use-t.js';

export interface Column<T> {
  header: string;
  cell: (item: T) => ComponentChildren;
}

interface ListProps<T> {
  /** The region's (or list's) accessible name, e.g. "Users". */
  label: string;
  /** Null until the first answer. */
  items: T[] | null;
  error: unknown;
  keyOf: (item: T) => string;
  /** What the status line says when items arrived: e.g. `50+ accounts`. None: nothing is said. */
  count?: (shown: number, more: boolean) => string;
  /** What the status line says when there is nothing to show. */
  empty: string;
  /** A paged list: "Show more" while the server has another page. */
  paging?: { hasMore: boolean; loading: boolean; loadMore: () => void };
  /** Table rows, one cell per column... */
  columns?: Array<Column<T>>;
  /** ...or one card per item. */
  card?: (item: T) => ComponentChildren;
}

export function AdminList<T>(props: ListProps<T>) {
  const t = useT();
  const { items, paging } = props;
  const more = paging?.hasMore ?? false;
  const status =
    items === null ? (props.error == null ? t('common.loading') : '') : items.length === 0 ? props.empty : (props.count?.(items.length, more) ?? '');
  return (
    <>
      <ErrorNotice error={props.error} />
      <p class="muted admin-status" role="status">
        {status}
      </p>
      {items && items.length > 0 && props.columns && <Table label={props.label} items={items} columns={props.columns} keyOf={props.keyOf} />}
      {items && items.length > 0 && props.card && (
        <ul class="admin-cards" aria-label={props.label}>
          {items.map((item) => (
            <li key={props.keyOf(item)} class="card">
              {props.card?.(item)}
            </li>
          ))}
        </ul>
      )}
      {paging && more && (
        <button type="button" disabled={paging.loading} aria-busy={paging.loading} onClick={paging.loadMore}>
          {t('admin.list.showMore')}
        </button>
      )}
    </>
  );
}

function Table<T>(props: { label: string; items: T[]; columns: Array<Column<T>>; keyOf: (item: T) => string }) {
  return (
    // Focusable so a keyboard can scroll it sideways at phone width.
    <div class="table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.items.map((item) => (
            <tr key={props.keyOf(item)}>
              {props.columns.map((column) => (
                <td key={column.header}>{column.cell(item)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The filters above a list. With `onSearch` they are a search form applied by its button (a
 * typed prefix should not reload on every key); without, each control applies as it changes.
 */
export function ListFilters(props: { label: string; onSearch?: () => void; children: ComponentChildren }) {
  const t = useT();
  return (
    <form
      class="admin-filters"
      role={props.onSearch ? 'search' : undefined}
      aria-label={props.label}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSearch?.();
      }}
    >
      {props.children}
      {props.onSearch && (
        <button type="submit" class="button-primary">
          {t('admin.list.search')}
        </button>
      )}
    </form>
  );
}

export function TextFilter(props: { id: string; label: string; value: string; maxLength: number; onValue: (value: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} type="search" maxLength={props.maxLength} value={props.value} onInput={(event) => props.onValue(event.currentTarget.value)} />
    </div>
  );
}

/** A choice among `options` ([value, words]); '' is "any" when the list offers it. */
export function SelectFilter<V extends string>(props: { id: string; label: string; value: V; options: Array<[V, string]>; onValue: (value: V) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(event) => props.onValue(event.currentTarget.value as V)}>
        {props.options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
}
