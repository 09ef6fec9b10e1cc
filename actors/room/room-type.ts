/** The room's actor type name: its NATS subjects and ownership bucket are named by it. */
export const ROOM_ACTOR_TYPE = 'room';
