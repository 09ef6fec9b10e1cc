/** One setting: its value, default and rule, and who changed it when, from what to what. */
import { api, call } from '../../../api/client.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { shown } from '../format.js';
import { formatTime } from '../../../ui/format.js';
import './settings.css';

export function SettingDetails(props: { params?: { key?: string } }) {
  // `key` is also Preact's reconciliation prop, so the router's params are the reliable source.
  const key = props.params?.key ?? '';
  const setting = useLoad(() => call(api.GET('/api/admin/settings/{key}', { params: { path: { key } } })), [key]);
  const history = useLoad(() => call(api.GET('/api/admin/settings/{key}/history', { params: { path: { key }, query: { limit: 100 } } })), [key]);
  const view = setting.data;
  return (
    <Page title={`Setting ${key}`} wide>
      <p>
        <a href={view ? `/admin/settings#settings-group-${view.group}` : '/admin/settings'}>All settings</a>
      </p>
      <ErrorNotice error={setting.error} />
      {view && (
        <dl class="admin-facts">
          <dt>Meaning</dt>
          <dd>{view.description}</dd>
          <dt>Value</dt>
          <dd>
            <code class="admin-break">{shown(view.value)}</code>
            {view.isDefault && ' (the default)'}
          </dd>
          <dt>Default</dt>
          <dd>
            <code class="admin-break">{shown(view.default)}</code>
          </dd>
          <dt>Accepts</dt>
          <dd>{view.rule}</dd>
          <dt>Last changed</dt>
          <dd>{view.updatedAt ? `${formatTime(view.updatedAt)} by ${view.updatedBy ?? 'unknown'}` : 'never'}</dd>
        </dl>
      )}
      <section aria-labelledby="setting-history">
        <h2 id="setting-history">History</h2>
        <ErrorNotice error={history.error} />
        {history.data && history.data.history.length === 0 && <p class="muted">Never changed.</p>}
        {history.data && history.data.history.length > 0 && (
          <div class="table-wrap" role="region" aria-labelledby="setting-history" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                </tr>
              </thead>
              <tbody>
                {history.data.history.map((entry, index) => (
                  <tr key={`${entry.changedAt}-${index}`}>
                    <td>{formatTime(entry.changedAt)}</td>
                    <td>
                      {entry.changedBy} <span class="muted">({entry.source})</span>
                    </td>
                    <td>
                      <code class="admin-break">{shown(entry.oldValue)}</code>
                      {entry.oldIsDefault && <span class="muted"> (default)</span>}
                    </td>
                    <td>
                      <code class="admin-break">{shown(entry.newValue)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Page>
  );
}
