export const auth = {};
