import type { pwa as en } from '../en/pwa.js';
import type { Translation } from '../translation.js';

export const pwa: Translation<typeof en> = {
  notices: '应用状态',
  offline: {
    title: '你已离线。',
    body: '房间、聊天和播放都需要网络；网络恢复后 svc 会自动重新连接。',
  },
  update: {
    ready: 'svc 有新版本可用。',
    reload: '重新加载',
    later: '稍后',
  },
  share: {
    title: '添加分享的链接',
    link: '链接',
    linkTitle: '标题',
    noLink: '分享的内容里没有可添加的网页链接（http 或 https）。',
    signIn: '登录后即可把这个链接添加到你的房间，登录后会回到这里。',
    pick: '添加到你的某个房间',
    addTo: '添加到 {{room}}',
    noRooms: '你还没有房间：为这个链接创建一个吧。',
    newRoom: '或者创建一个新房间',
    loading: '正在加载你的房间…',
    more: '更多房间',
  },
};
