/** One setting: its value, default and what it accepts, and who changed it when, from what to what. */
import { api, call } from '../../../api/client.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { shown } from '../format.js';
import { inWords } from './setting-rules.js';
import { formatTime } from '../../../ui/format.js';
import './settings.css';

export function SettingDetails(props: { params?: { key?: string } }) {
  // `key` is also Preact's reconciliation prop, so the router's params are the reliable source.
  const key = props.params?.key ?? '';
  const setting = useLoad(() => call(api.GET('/api/admin/settings/{key}', { params: { path: { key } } })), [key]);
  const history = useLoad(() => call(api.GET('/api/admin/settings/{key}/history', { params: { path: { key }, query: { limit: 100 } } })), [key]);
  const view = setting.data;
  // Values in the page's words once the setting says how to read them.
  const words = (value: unknown) => (view ? inWords(view, value) : shown(value));
  return (
    <Page title={view ? view.label : key} wide>
      <p>
        <a href={view ? `/admin/settings#settings-group-${view.group}` : '/admin/settings'}>All settings</a>
        {view && (
          <span class="muted">
            {' '}
            · {view.groupLabel}
          </span>
        )}
      </p>
      <ErrorNotice error={setting.error} />
      {view && (
        <dl class="admin-facts">
          <dt>What it does</dt>
          <dd>{view.description}</dd>
          <dt>Now</dt>
          <dd>
            <span class="admin-break">{words(view.value)}</span>
            {view.isDefault && ' (the default)'}
          </dd>
          <dt>Default</dt>
          <dd>
            <span class="admin-break">{words(view.default)}</span>
          </dd>
          <dt>Accepts</dt>
          <dd>{view.accepts}</dd>
          <dt>Key</dt>
          <dd>
            <code>{view.key}</code>
          </dd>
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
                      <span class="admin-break">{words(entry.oldValue)}</span>
                      {entry.oldIsDefault && <span class="muted"> (default)</span>}
                    </td>
                    <td>
                      <span class="admin-break">{words(entry.newValue)}</span>
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
