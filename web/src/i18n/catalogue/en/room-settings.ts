export const roomSettings = {};
