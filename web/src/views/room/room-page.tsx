import { Page } from '../../ui/page.js';

// Placeholder until this page is built (issue 11 integration branch only).
export function RoomPage() {
  return <Page title="Room" />;
}
