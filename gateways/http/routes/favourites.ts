/** Favourite rooms (contracts/http/rooms.ts): star, unstar, and the list the home page shows first. */
import type pg from 'pg';
import { RoomDirectory } from '../../../actors/index.js';
import * as api from '../../../contracts/http/rooms.js';
import { FavouriteRooms } from '../../rooms/favourite-rooms.js';
import type { EndpointRouter } from '../endpoint-router.js';

export function mountFavouriteRoutes(router: EndpointRouter, pool: pg.Pool): void {
  const favourites = new FavouriteRooms(pool);
  const directory = new RoomDirectory(pool);
  router
    .mount(api.listFavouriteRooms, async (ctx, { caller }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { rooms: await directory.listFavourites(caller.userId) };
    })
    .mount(api.addFavouriteRoom, async (ctx, { caller, params }) => {
      await favourites.add(caller.userId, params.roomId);
      ctx.status = 204;
    })
    .mount(api.removeFavouriteRoom, async (ctx, { caller, params }) => {
      await favourites.remove(caller.userId, params.roomId);
      ctx.status = 204;
    });
}
