import type { shell as en } from '../en/shell.js';
import type { Translation } from '../translation.js';

export const shell: Translation<typeof en> = {
  skipToContent: '跳到正文',
  home: 'svc 首页',
  mainNav: '主导航',
  rooms: '房间',
  admin: '管理',
  guestName: '{{name}}（访客）',
  signIn: '登录',
  signUp: '注册',
  signOut: '退出登录',
  notFound: {
    body: '这个地址没有内容。',
    browse: '浏览房间',
    title: '页面不存在',
  },
  bell: {
    label: '通知',
    unread_other: '{{count}} 条未读',
    empty: '还没有通知。',
    mention: '{{by}} 在 {{room}} 中提到了你：“{{excerpt}}”',
    joinApproved: '你现在可以加入 {{room}} 了。',
    joinDeclined: '你加入 {{room}} 的请求被拒绝了。',
    roleChanged: '你在 {{room}} 中的角色现在是{{role}}。',
    reviewApproved: '审核员批准了你的申请。',
    reviewDeclined: '审核员拒绝了你的申请。',
  },
};
