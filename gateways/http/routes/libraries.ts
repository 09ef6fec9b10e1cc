/**
 * The library endpoints of contracts/http/libraries.ts. Every room-scoped call first asks the
 * room (`room.get`, as the caller, counted against the caller's read rate) for the caller's
 * standing; what that standing allows is media/libraries/libraries.ts's to decide. What a member
 * can make this server fetch from library servers is bounded by requests, not calls: each
 * request a browse, search or add makes draws on the caller's and the library's budgets
 * (media/libraries/upstream-budget.ts). Adding sends one `playlist.push`
 * per file, as the caller, so the room applies its own rules (create_media_resource, the
 * playlist's size) exactly as for any other add.
 */
import { subjectOf, type Caller } from '../../../accounts/index.js';
import type { MediaItem, PlaylistFolder } from '../../../contracts/room/model.js';
import { AppError, isAppError } from '../../../errors/index.js';
import type { ConnectInput, LibraryStanding, MediaLibraries, OpenLibrary } from '../../../media/index.js';
import { LibraryUpstreamBudget } from '../../../media/index.js';
import type { LibraryRecord } from '../../../media/index.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import * as api from '../../../contracts/http/libraries.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { IDEMPOTENCY_HEADER } from '../room-command-route.js';
import type { HttpContext } from '../state.js';

/** A library as clients see it: never its secret. */
function view(record: LibraryRecord) {
  return { id: record.id, kind: record.kind, name: record.name, url: record.url, username: record.username, owner: record.owner, transcoder: record.transcoder, createdAt: record.createdAt };
}

export function mountLibraryRoutes(router: EndpointRouter, deps: GatewayDeps, libraries: MediaLibraries): void {
  const standingIn = async (ctx: HttpContext, caller: Caller, roomId: string, operation: string): Promise<LibraryStanding> => {
    const { result } = await deps.commands.send({ transport: 'http', caller, roomId, operation, command: { kind: 'room.get' }, trace: ctx.state.trace });
    return { userId: caller.kind === 'user' ? caller.userId : null, permissions: result.me.permissions };
  };
  const kinds = libraries.connectors.list();
  const noStore = (ctx: HttpContext) => ctx.set('Cache-Control', 'no-store');
  const budget = new LibraryUpstreamBudget(deps.redis);
  /** The library as the caller may use it in the room, its connector's requests counted against their budget. */
  const openFor = async (caller: Caller, roomId: string, libraryId: string, standing: LibraryStanding): Promise<OpenLibrary> => {
    const library = await libraries.open(roomId, libraryId, standing);
    return deps.media ? { ...library, http: budget.metered(deps.media.client, subjectOf(caller), library.record.id) } : library;
  };

  router
    .mount(api.listMyLibraries, async (ctx, { caller }) => {
      const mine = await libraries.store.ownedBy({ kind: 'user', userId: caller.userId });
      noStore(ctx);
      ctx.body = { libraries: mine.map(view), kinds };
    })
    .mount(api.connectMyLibrary, async (ctx, { caller, body }) => {
      await deps.accounts.limits.consume('libraryConnectsPerCaller', caller.userId, 'connecting libraries');
      const record = await libraries.connect(connectInput(body), { kind: 'user', userId: caller.userId }, caller.userId);
      ctx.status = 201;
      ctx.body = { library: view(record) };
    })
    .mount(api.editMyLibrary, async (ctx, { caller, params, body }) => {
      const record = await libraries.edit(params.libraryId, body, { userId: caller.userId });
      ctx.body = { library: view(record) };
    })
    .mount(api.deleteMyLibrary, async (ctx, { caller, params }) => {
      await libraries.remove(params.libraryId, { userId: caller.userId });
      ctx.status = 204;
    })
    .mount(api.listRoomLibraries, async (ctx, { caller, params }) => {
      const standing = await standingIn(ctx, caller, params.roomId, api.listRoomLibraries.operationId);
      const usable = await libraries.usableIn(params.roomId, standing);
      noStore(ctx);
      ctx.body = { libraries: usable.map(view), kinds };
    })
    .mount(api.connectRoomLibrary, async (ctx, { caller, params, body }) => {
      const standing = await standingIn(ctx, caller, params.roomId, api.connectRoomLibrary.operationId);
      const createdBy = caller.kind === 'user' ? caller.userId : caller.guestId;
      await deps.accounts.limits.consume('libraryConnectsPerCaller', createdBy, 'connecting libraries');
      const record = await libraries.connect(connectInput(body), { kind: 'room', roomId: params.roomId }, createdBy, standing);
      ctx.status = 201;
      ctx.body = { library: view(record) };
    })
    .mount(api.editRoomLibrary, async (ctx, { caller, params, body }) => {
      const standing = await standingIn(ctx, caller, params.roomId, api.editRoomLibrary.operationId);
      const record = await libraries.edit(params.libraryId, body, { userId: standing.userId, roomId: params.roomId, standing });
      ctx.body = { library: view(record) };
    })
    .mount(api.deleteRoomLibrary, async (ctx, { caller, params }) => {
      const standing = await standingIn(ctx, caller, params.roomId, api.deleteRoomLibrary.operationId);
      await libraries.remove(params.libraryId, { userId: standing.userId, roomId: params.roomId, standing });
      ctx.status = 204;
    })
    .mount(api.listLibraryFolder, async (ctx, { caller, params, query }) => {
      const standing = await standingIn(ctx, caller, params.roomId, api.listLibraryFolder.operationId);
      const library = await openFor(caller, params.roomId, params.libraryId, standing);
      noStore(ctx);
      ctx.body = await libraries.list(library, query.folder ?? null);
    })
    .mount(api.searchLibrary, async (ctx, { caller, params, query }) => {
      const standing = await standingIn(ctx, caller, params.roomId, api.searchLibrary.operationId);
      const library = await openFor(caller, params.roomId, params.libraryId, standing);
      noStore(ctx);
      ctx.body = await libraries.search(library, query.q);
    })
    .mount(api.addFromLibrary, async (ctx, { caller, params, body }) => {
      const operation = api.addFromLibrary.operationId;
      const standing = await standingIn(ctx, caller, params.roomId, operation);
      const library = await openFor(caller, params.roomId, params.libraryId, standing);
      let files: Array<{ id: string; name: string }>;
      let capped = false;
      if (body.folder) {
        ({ files, capped } = await libraries.playableFiles(library, body.entryId));
        if (files.length === 0) throw AppError.invalid([{ key: 'entryId', message: 'this folder holds no video or audio files' }]);
      } else {
        const file = await libraries.oneFile(library, body.entryId);
        files = [{ id: file.id, name: body.title ?? file.name }];
      }
      const added: Array<{ item: MediaItem; index: number }> = [];
      let seq = 0;
      let rejected: { code: string; message: string } | undefined;
      // A library folder becomes a playlist folder named after it, holding its files.
      let folder: PlaylistFolder | undefined;
      if (body.folder) {
        const answer = await deps.commands.send({
          transport: 'http',
          caller,
          roomId: params.roomId,
          command: { kind: 'playlist.folder.add', title: body.title ?? libraryFolderName(body.entryId) },
          operation,
          clientId: ctx.get(IDEMPOTENCY_HEADER) || undefined,
          // Its own part, apart from the items' 0..n-1, so a retry with the same key re-answers it.
          part: -1,
          trace: ctx.state.trace,
          counted: true,
        });
        folder = answer.result.folder;
        seq = answer.seq;
      }
      const removeEmptyFolder = async (folderId: string): Promise<void> => {
        await deps.commands.send({
          transport: 'http',
          caller,
          roomId: params.roomId,
          command: { kind: 'playlist.folder.remove', folderId, withItems: false },
          operation,
          clientId: ctx.get(IDEMPOTENCY_HEADER) || undefined,
          part: -2,
          trace: ctx.state.trace,
          counted: true,
        });
      };
      for (const [i, file] of files.entries()) {
        try {
          const answer = await deps.commands.send({
            transport: 'http',
            caller,
            roomId: params.roomId,
            command: { kind: 'playlist.push', ...libraries.itemFields(library, file), ...(folder ? { folderId: folder.id } : {}) },
            operation,
            clientId: ctx.get(IDEMPOTENCY_HEADER) || undefined,
            part: i,
            trace: ctx.state.trace,
            // The room.get above counted this request against the caller's rate.
            counted: true,
          });
          added.push(answer.result);
          seq = answer.seq;
        } catch (err) {
          if (added.length === 0 || !isAppError(err) || err.code === 'internal') {
            // Nothing of the folder went in (a full playlist, say): the request adds nothing, so
            // the empty playlist folder made for it goes too, if the caller may remove folders;
            // either way the answer is why the file was refused.
            if (folder && added.length === 0) await removeEmptyFolder(folder.id).catch(() => undefined);
            throw err;
          }
          rejected = { code: err.code, message: err.message };
          break;
        }
      }
      ctx.status = 201;
      ctx.body = { added, capped, ...(folder ? { folder } : {}), ...(rejected ? { rejected } : {}), seq };
    });
}

/** A connect request's fields, with the defaults of what it may leave out. */
function connectInput(body: { kind: string; name: string; url: string; username?: string | undefined; secret?: string | undefined; transcoder?: ConnectInput['transcoder'] | undefined }): ConnectInput {
  return { kind: body.kind, name: body.name, url: body.url, username: body.username ?? '', secret: body.secret ?? '', transcoder: body.transcoder ?? 'svc' };
}

/** A folder's name when the client gave none: the last segment of a path-shaped id, else the id. */
function libraryFolderName(entryId: string): string {
  const segments = entryId.split('/').filter((segment) => segment.length > 0);
  return (segments.at(-1) ?? entryId).slice(0, 200) || 'Library folder';
}
