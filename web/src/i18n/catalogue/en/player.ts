export const player = {};
