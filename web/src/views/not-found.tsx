import { Page } from '../ui/page.js';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is nothing at this address. <a href="/rooms">Browse rooms</a>
      </p>
    </Page>
  );
}
