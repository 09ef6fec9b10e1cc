import { rememberNext } from '../../auth/next-path.js';

/**
 * One link per OAuth2 / OIDC provider instance, to the browser variant of authorize (it sets
 * the flow's binding cookie and redirects to the provider). The click must reach the browser:
 * the router would otherwise treat the same-origin /api link as a page of the client.
 */
export function OAuth2Buttons(props: { instances: string[]; verb: string; next?: string }) {
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
            {props.verb} with {instance}
          </a>
        </li>
      ))}
    </ul>
  );
}
