import type { common as en } from '../en/common.js';
import type { Translation } from '../translation.js';

export const common: Translation<typeof en> = {
  save: '保存',
  cancel: '取消',
  dismiss: '关闭提示',
  close: '关闭',
  delete: '删除',
  edit: '编辑',
  remove: '移除',
  add: '添加',
  back: '返回',
  next: '下一页',
  previous: '上一页',
  loading: '加载中…',
  none: '无',
  yes: '是',
  no: '否',
  language: '语言',
  roomRoles: {
    admin: '管理员',
    member: '成员',
    guest: '访客',
  },
};
