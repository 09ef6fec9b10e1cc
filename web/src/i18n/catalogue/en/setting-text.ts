export const settingText = {};
