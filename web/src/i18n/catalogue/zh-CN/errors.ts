import type { errors as en } from '../en/errors.js';
import type { Translation } from '../translation.js';

export const errors: Translation<typeof en> = {
  titles: {
    invalid_argument: '请检查你填写的内容',
    limit_exceeded: '已达到上限',
    payload_too_large: '内容太大',
    rate_limited: '尝试次数过多',
    signup_disabled: '此注册方式已关闭',
    review_pending: '等待审核',
    review_rejected: '你的申请未获批准',
    account_banned: '此账号已被封禁',
    busy: '服务繁忙：请稍后再试',
    resource_exhausted: '服务器正在满负荷处理此类请求：请稍后再试',
    unavailable: '暂不可用',
    deadline_exceeded: '处理超时：请重试',
    bad_gateway: '另一台服务器的响应不符合预期',
    internal: '服务器内部出错',
  },
  offline: '无法连接服务器：请检查网络',
  serverAnswered: '服务器返回了 {{status}} {{statusText}}',
  tryAgain: '你可以{{when}}重试。',
  requestId: '请求编号：{{id}}',
};
