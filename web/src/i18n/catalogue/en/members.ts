export const members = {};
