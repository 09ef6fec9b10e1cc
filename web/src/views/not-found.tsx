import { useT } from '../i18n/use-t.js';
import { Page } from '../ui/page.js';

export function NotFound() {
  const t = useT();
  return (
    <Page title={t('shell.notFound.title')}>
      <p>
        {t('shell.notFound.body')} <a href="/rooms">{t('shell.notFound.browse')}</a>
      </p>
    </Page>
  );
}
