/** One setting: its value, default and what it accepts, and who changed it when, from what to what. */
import { api, call } from '../../../api/client.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { shown } from '../format.js';
import { inWords } from './setting-rules.js';
import { formatTime } from '../../../ui/format.js';
import { useT } from '../../../i18n/use-t.js';
import { groupLabel, settingAccepts, settingDescription, settingLabel } from './setting-words.js';
import './settings.css';

export function SettingDetails(props: { params?: { key?: string } }) {
  // `key` is also Preact's reconciliation prop, so the router's params are the reliable source.
  const t = useT();
  const key = props.params?.key ?? '';
  const setting = useLoad(() => call(api.GET('/api/admin/settings/{key}', { params: { path: { key } } })), [key]);
  const history = useLoad(() => call(api.GET('/api/admin/settings/{key}/history', { params: { path: { key }, query: { limit: 100 } } })), [key]);
  const view = setting.data;
  // Values in the page's words once the setting says how to read them.
  const words = (value: unknown) => (view ? inWords(view, value) : shown(value));
  return (
    <Page title={view ? settingLabel(view) : key} wide>
      <p>
        <a href={view ? `/admin/settings#settings-group-${view.group}` : '/admin/settings'}>{t('admin.settings.details.all')}</a>
        {view && (
          <span class="muted">
            {' '}
            · {groupLabel(view.group, view.groupLabel)}
          </span>
        )}
      </p>
      <ErrorNotice error={setting.error} />
      {view && (
        <dl class="admin-facts">
          <dt>{t('admin.settings.details.whatItDoes')}</dt>
          <dd>{settingDescription(view)}</dd>
          <dt>{t('admin.settings.details.now')}</dt>
          <dd>
            <span class="admin-break">{words(view.value)}</span>
            {view.isDefault && t('admin.settings.details.isDefault')}
          </dd>
          <dt>{t('admin.settings.details.default')}</dt>
          <dd>
            <span class="admin-break">{words(view.default)}</span>
          </dd>
          <dt>{t('admin.settings.details.accepts')}</dt>
          <dd>{settingAccepts(view)}</dd>
          <dt>{t('admin.settings.details.key')}</dt>
          <dd>
            <code>{view.key}</code>
          </dd>
          <dt>{t('admin.settings.details.lastChanged')}</dt>
          <dd>
            {view.updatedAt
              ? t('admin.settings.details.changedAtBy', { when: formatTime(view.updatedAt), who: view.updatedBy ?? t('admin.settings.details.unknown') })
              : t('admin.settings.details.never')}
          </dd>
        </dl>
      )}
      <section aria-labelledby="setting-history">
        <h2 id="setting-history">{t('admin.settings.details.history')}</h2>
        <ErrorNotice error={history.error} />
        {history.data && history.data.history.length === 0 && <p class="muted">{t('admin.settings.details.neverChanged')}</p>}
        {history.data && history.data.history.length > 0 && (
          <div class="table-wrap" role="region" aria-labelledby="setting-history" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('admin.settings.details.when')}</th>
                  <th scope="col">{t('admin.settings.details.who')}</th>
                  <th scope="col">{t('admin.settings.details.from')}</th>
                  <th scope="col">{t('admin.settings.details.to')}</th>
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
                      {entry.oldIsDefault && <span class="muted">{t('admin.settings.details.wasDefault')}</span>}
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
