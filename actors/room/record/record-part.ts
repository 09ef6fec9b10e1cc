/**
 * The room record's part: creating, reading, changing, reviewing and deleting the room, and
 * transferring its ownership (room-handlers.ts). The core holds the record and loads it before
 * any part; this part holds no state of its own.
 */
import { roomPart } from '../part.js';
import { createRoom, deleteRoomCommand, getRoom, reviewRoom, transferOwnership, updateRoomSettings } from './room-handlers.js';

export const recordPart = roomPart({
  name: 'record',
  handlers: {
    'room.create': createRoom,
    'room.get': getRoom,
    'room.update': updateRoomSettings,
    'room.delete': deleteRoomCommand,
    'room.review': reviewRoom,
    'owner.transfer': transferOwnership,
  },
});
