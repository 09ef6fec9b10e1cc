export const room = {};
