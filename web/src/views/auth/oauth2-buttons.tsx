import { rememberNext } from '../../auth/next-path.js';
import { useT } from '../../i18n/use-t.js';

/**
 * One link per OAuth2 / OIDC provider instance, to the browser variant of authorize (it sets
 * the flow's binding cookie and redirects to the provider). The click must reach the browser:
 * the router would otherwise treat the same-origin /api link as a page of the client.
 */
export function OAuth2Buttons(props: { instances: string[]; mode: 'signIn' | 'signUp'; next?: string }) {
  const t = useT();
  if (props.instances.length === 0) return null;
  return (
    <ul class="auth-providers">
      {props.instances.map((instance) => (
        <li key={instance}>
          <a class="button-link auth-provider" href={`/api/auth/oauth2/${encodeURIComponent(instance)}/authorize`} onClick={(event) => {
              event.stopPropagation();
              rememberNext(props.next ?? '/');
            }}
          >
            {t(props.mode === 'signIn' ? 'auth.provider.signIn' : 'auth.provider.signUp', { instance })}
          </a>
        </li>
      ))}
    </ul>
  );
}
