/**
 * Every runtime setting, one form per group, in the registry's order. A save reloads the list so
 * every field shows what the server now holds (a form is rebuilt from it by its version key), and
 * says it saved once the rebuilt form is there.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { SettingsGroup } from './settings-group.js';
import type { Setting } from './setting-rules.js';
import { useT } from '../../../i18n/use-t.js';
import { groupLabel } from './setting-words.js';
import './settings.css';

function byGroup(settings: Setting[]): [string, Setting[]][] {
  const groups = new Map<string, Setting[]>();
  for (const setting of settings) groups.set(setting.group, [...(groups.get(setting.group) ?? []), setting]);
  return [...groups];
}

const labelOf = (group: string, settings: Setting[]): string => groupLabel(group, settings[0]?.groupLabel ?? group);

export function SettingsPage() {
  const t = useT();
  const loaded = useLoad(() => call(api.GET('/api/admin/settings')), []);
  const [saved, setSaved] = useState('');
  const groups = loaded.data ? byGroup(loaded.data.settings) : [];
  return (
    <Page title={t('admin.settings.title')} wide>
      <p class="muted">{t('admin.settings.intro')}</p>
      <p class="admin-status" role="status">
        {saved}
      </p>
      <ErrorNotice error={loaded.error} />
      {!loaded.data && !loaded.error && <p class="muted">{t('common.loading')}</p>}
      {groups.length > 0 && (
        <nav class="settings-toc" aria-label={t('admin.settings.groups')}>
          <ul>
            {groups.map(([group, settings]) => (
              <li key={group}>
                <a href={`#settings-group-${group}`}>{labelOf(group, settings)}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {groups.map(([group, settings]) => (
        <SettingsGroup
          // A new version of any key rebuilds the form from the server's values.
          key={`${group}:${settings.map((setting) => setting.version).join(',')}`}
          group={group}
          label={labelOf(group, settings)}
          settings={settings}
          onSaved={(message) => {
            // "Saved" shows with the reloaded form: shown before it, a value typed at once was
            // wiped when the form was rebuilt from the server's answer.
            setSaved('');
            void loaded.reloaded().then(() => setSaved(message));
          }}
        />
      ))}
    </Page>
  );
}
