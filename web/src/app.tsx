/**
 * Routes. Every page but the shell is its own chunk, loaded when first visited, so the initial
 * JavaScript stays small (the player libraries and OPAQUE's WebAssembly load only where used).
 */
import { ErrorBoundary, LocationProvider, Route, Router, lazy } from 'preact-iso';
import { Shell } from './ui/shell.js';
import { NotFound } from './views/not-found.js';

const Home = lazy(() => import('./views/rooms/home.js').then((m) => m.Home));
const Directory = lazy(() => import('./views/rooms/directory.js').then((m) => m.Directory));
const CreateRoom = lazy(() => import('./views/rooms/create-room.js').then((m) => m.CreateRoom));
const RoomPage = lazy(() => import('./views/room/room-page.js').then((m) => m.RoomPage));
const SignIn = lazy(() => import('./views/auth/sign-in.js').then((m) => m.SignIn));
const SignUp = lazy(() => import('./views/auth/sign-up.js').then((m) => m.SignUp));
const OAuth2Callback = lazy(() => import('./views/auth/oauth2-callback.js').then((m) => m.OAuth2Callback));
const Account = lazy(() => import('./views/account/account.js').then((m) => m.Account));
const Admin = lazy(() => import('./views/admin/admin.js').then((m) => m.Admin));
const ShareTarget = lazy(() => import('./pwa/share-target.js').then((m) => m.ShareTarget));

export function App() {
  return (
    <LocationProvider>
      <Shell>
        <ErrorBoundary>
          <Router>
            <Route path="/" component={Home} />
            <Route path="/rooms" component={Directory} />
            <Route path="/rooms/new" component={CreateRoom} />
            <Route path="/rooms/:roomId" component={RoomPage} />
            <Route path="/signin" component={SignIn} />
            <Route path="/signup" component={SignUp} />
            {/* The links in the service's emails (accounts/email/messages.ts): the same pages, opened at their email step. */}
            <Route path="/auth/confirm-email" component={SignUp} emailLink="confirm-email" />
            <Route path="/auth/reset" component={SignIn} emailLink="reset" />
            <Route path="/oauth2/callback/:instance" component={OAuth2Callback} />
            <Route path="/account" component={Account} />
            {/* preact-iso's "/admin/*" needs a segment after /admin, so the overview needs its own line. */}
            <Route path="/admin" component={Admin} />
            <Route path="/admin/*" component={Admin} />
            {/* "Share → svc" from the installed app (the manifest's share_target). */}
            <Route path="/share" component={ShareTarget} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </Shell>
    </LocationProvider>
  );
}
