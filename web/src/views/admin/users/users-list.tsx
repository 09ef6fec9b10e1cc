/**
 * Accounts in username order, a page at a time ("Show more" appends the next), narrowed by a
 * username prefix, a role and a state as GET /api/admin/users allows.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { formatTime } from '../../../ui/format.js';
import { usePaged, type PageOf } from '../../../ui/use-paged.js';

type User = Schemas['User'];
type Role = User['role'];
type State = User['state'];
interface Filter {
  q: string;
  role: Role | '';
  state: State | '';
}

const PAGE_SIZE = 50;

async function fetchPage(filter: Filter, cursor: string | undefined): Promise<PageOf<User>> {
  const q = filter.q.trim();
  const page = await call(
    api.GET('/api/admin/users', {
      params: { query: { limit: PAGE_SIZE, ...(q ? { q } : {}), ...(filter.role ? { role: filter.role } : {}), ...(filter.state ? { state: filter.state } : {}), ...(cursor ? { cursor } : {}) } },
    }),
  );
  return { items: page.users, nextCursor: page.nextCursor };
}

export function UsersList() {
  const [draft, setDraft] = useState<Filter>({ q: '', role: '', state: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  const { items: users, loading, error, hasMore, loadMore } = usePaged((cursor) => fetchPage(filter, cursor), [filter]);

  return (
    <Page title="Users" wide>
      <form
        class="admin-filters"
        role="search"
        aria-label="Find users"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter({ ...draft });
        }}
      >
        <div class="field">
          <label for="users-q">Username starts with</label>
          <input id="users-q" type="search" maxLength={32} value={draft.q} onInput={(event) => setDraft({ ...draft, q: event.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="users-role">Role</label>
          <select id="users-role" value={draft.role} onChange={(event) => setDraft({ ...draft, role: event.currentTarget.value as Filter['role'] })}>
            <option value="">Any</option>
            <option value="user">user</option>
            <option value="admin">admin</option>
            <option value="root">root</option>
          </select>
        </div>
        <div class="field">
          <label for="users-state">State</label>
          <select id="users-state" value={draft.state} onChange={(event) => setDraft({ ...draft, state: event.currentTarget.value as Filter['state'] })}>
            <option value="">Any</option>
            <option value="active">active</option>
            <option value="banned">banned</option>
          </select>
        </div>
        <button type="submit" class="button-primary">
          Search
        </button>
      </form>
      <ErrorNotice error={error} />
      <p class="muted" role="status">
        {users === null ? 'Loading…' : `${users.length}${hasMore ? '+' : ''} account${users.length === 1 ? '' : 's'}`}
      </p>
      {users && users.length > 0 && (
        <div class="table-wrap" role="region" aria-label="Users" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Display name</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>
                    <a href={`/admin/users/${user.id}`}>{user.username}</a>
                  </td>
                  <td>{user.displayName}</td>
                  <td>{user.role}</td>
                  <td>{user.state === 'banned' ? <span class="badge badge-danger">banned</span> : 'active'}</td>
                  <td>{formatTime(user.lastLoginAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasMore && (
        <button type="button" disabled={loading} aria-busy={loading} onClick={loadMore}>
          Show more
        </button>
      )}
    </Page>
  );
}
