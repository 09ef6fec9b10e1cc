/**
 * Who is signed in, as signals the views read. `restoreSession` runs once at start: a browser
 * that holds a refresh cookie is signed in again without a prompt.
 */
import { computed, signal } from '@preact/signals';
import { api, call, dropAccess, onRefresh, refreshAccess, useAccess } from '../api/client.js';
import type { Schemas } from '../api/types.js';

export type User = Schemas['User'];
export interface Guest {
  id: string;
  displayName: string;
}

export interface Session {
  sessionId: string;
  user: User | null;
  guest: Guest | null;
}

/** undefined while the first restore runs; null when signed out. */
export const session = signal<Session | null | undefined>(undefined);
export const currentUser = computed(() => session.value?.user ?? null);
export const isAdmin = computed(() => {
  const role = session.value?.user?.role;
  return role === 'admin' || role === 'root';
});
/** The id rooms know this person by (user or guest). */
export const currentId = computed(() => session.value?.user?.id ?? session.value?.guest?.id ?? null);
export const displayName = computed(() => session.value?.user?.displayName ?? session.value?.guest?.displayName ?? '');

/**
 * Set while this browser holds a session, so a visitor who never signed in does not ask the
 * server to refresh a cookie it cannot have (the cookie itself is httpOnly, invisible here).
 */
const SIGNED_IN_MARK = 'svc.signedIn';
function mark(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_MARK, '1');
    else localStorage.removeItem(SIGNED_IN_MARK);
  } catch {
    // storage disabled: every start asks the server instead
  }
}
function marked(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_MARK) !== null;
  } catch {
    return true;
  }
}

function fromSignedIn(signedIn: Schemas['SignedIn']): Session {
  return { sessionId: signedIn.sessionId, user: signedIn.user ?? null, guest: signedIn.guest ?? null };
}

/** Every sign-in method ends here with the server's `SignedIn` answer. */
export function signedIn(answer: Schemas['SignedIn']): void {
  useAccess(answer);
  mark(true);
  session.value = fromSignedIn(answer);
}

onRefresh((answer) => {
  const current = session.value;
  // A refresh answer names the session only; the person stays who they were.
  if (answer && current) session.value = { sessionId: answer.sessionId, user: answer.user ?? current.user, guest: answer.guest ?? current.guest };
  else if (!answer && current) {
    mark(false);
    session.value = null;
  }
});

export async function restoreSession(): Promise<void> {
  const answer = marked() ? await refreshAccess() : null;
  if (answer === 'unreachable') {
    // Offline, or a reload cut the exchange short: the cookie may be as good as ever, so the
    // mark stays (clearing it signed the person out for good) and the session is asked for
    // again when the browser says it is online, or in a few seconds (it does not always say).
    session.value = null;
    askAgainSoon();
    return;
  }
  if (!answer) {
    mark(false);
    session.value = null;
    return;
  }
  // A refresh answer names the session, not the person: ask who it is.
  try {
    const me = await call(api.GET('/api/me'));
    session.value = { sessionId: answer.sessionId, user: me.user ?? null, guest: me.guest ?? null };
  } catch {
    session.value = null;
  }
}

const ASK_AGAIN_MS = 5_000;
let askAgain: ReturnType<typeof setTimeout> | undefined;
function askAgainSoon(): void {
  const again = () => {
    clearTimeout(askAgain);
    window.removeEventListener('online', again);
    if (session.value === null && marked()) void restoreSession();
  };
  clearTimeout(askAgain);
  askAgain = setTimeout(again, ASK_AGAIN_MS);
  window.addEventListener('online', again, { once: true });
}

export async function signOut(everywhere = false): Promise<void> {
  try {
    await call(api.POST(everywhere ? '/api/auth/logout-all' : '/api/auth/logout'));
  } finally {
    forgetSession();
  }
}

/**
 * Set while this page closes the account, and after: the session ending then (the server
 * announces it on open sockets, maybe before the answer arrives) is that, not a sign-out.
 */
export const accountClosed = signal(false);

/** Forgets the session on this page only: after the server already ended it (a closed account). */
export function forgetSession(): void {
  dropAccess();
  mark(false);
  session.value = null;
}
