export const playlist = {};
