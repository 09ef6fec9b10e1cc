import type { settingText as en } from '../en/setting-text.js';
import type { Translation } from '../translation.js';

export const settingText: Translation<typeof en> = {
  groups: {
    server: '服务器上限',
    permissions: '房间权限',
    room: '房间',
    user: '注册与访客',
    oauth2: '第三方登录',
    proxy: '经本服务器播放',
    rtmp: '直播推流',
    email: '邮箱注册',
    webrtc: '语音和视频通话',
    sfu: '屏幕共享和摄像头',
    chat: '聊天',
    cors: '其他网站',
  },
  keys: {
    server: {
      allowRoomCreation: {
        label: '允许创建房间',
        description: '关闭后，任何人都不能在本服务器上创建新房间；已有的房间照常开放。',
      },
      maxRoomsPerUser: {
        label: '每人可拥有的房间数',
        description: '一个人同时最多可以拥有多少个房间。',
      },
      maxMembersPerRoom: {
        label: '每个房间的人数',
        description: '一个房间里同时最多可以有多少人。',
      },
      maxChatMessages: {
        label: '全服聊天消息上限',
        description: '本服务器对外声明的聊天消息上限；各房间按“每个房间保留的聊天消息数”删除旧消息。',
      },
    },
    permissions: {
      adminDefaultPermissions: {
        label: '房间管理员可以做什么',
        description: '房间管理员可以做的事，除非房间设置了自己的权限。',
      },
      memberDefaultPermissions: {
        label: '房间成员可以做什么',
        description: '用账号加入房间的人可以做的事，除非房间设置了自己的权限。',
      },
      guestDefaultPermissions: {
        label: '访客可以做什么',
        description: '访客（没有账号的人）在房间里可以做的事，除非房间设置了自己的权限；访客最多只能观看和加入通话。',
      },
    },
    room: {
      disableCreateRoom: {
        label: '停止创建房间',
        description: '开启后，任何人都不能创建新房间；这是独立于“允许创建房间”的另一个开关。',
      },
      createRoomNeedReview: {
        label: '新房间需要审核',
        description: '开启后，新房间在管理员批准之前只有房主能看到。',
      },
      passwordPolicy: {
        label: '房间密码',
        description: '房间是否可以、必须或不得设置进入密码。',
      },
    },
    user: {
      enablePasswordSignup: {
        label: '用密码注册',
        description: '允许任何人用用户名和密码创建账号。',
      },
      passwordSignupNeedReview: {
        label: '密码注册需要审核',
        description: '开启后，用密码创建的账号需经管理员批准才能登录。',
      },
      enableEmailSignup: {
        label: '用邮箱注册',
        description: '允许任何人通过发送到其邮箱的链接创建账号，并在那里设置密码。',
      },
      emailSignupNeedReview: {
        label: '邮箱注册需要审核',
        description: '开启后，通过邮箱创建的账号需经管理员批准才能登录。',
      },
      enableWebauthnSignup: {
        label: '用通行密钥注册',
        description: '允许任何人用通行密钥代替密码创建账号（给已有账号添加通行密钥始终可以）。',
      },
      webauthnSignupNeedReview: {
        label: '通行密钥注册需要审核',
        description: '开启后，用通行密钥创建的账号需经管理员批准才会生效。',
      },
      enableGuest: {
        label: '访客',
        description: '允许没有账号的人以访客身份、用一个显示名称加入房间。',
      },
    },
    oauth2: {
      providers: {
        label: '用 GitHub 或其他提供方登录',
        description: '用户可以使用的外部登录提供方（GitHub 或任何 OpenID 提供方）；只提供这里列出的。',
        accepts: '提供方列表，每个都要有唯一的名称、类型、客户端 ID、客户端密钥和回调地址（OpenID 提供方还需要签发者）。',
      },
    },
    proxy: {
      movieProxy: {
        label: '经本服务器播放视频',
        description: '观众的浏览器无法直接获取视频时，允许房间经本服务器播放。',
      },
      liveProxy: {
        label: '经本服务器播放直播',
        description: '观众的浏览器无法直接获取直播流时，允许房间经本服务器播放。',
      },
    },
    rtmp: {
      customPublishHost: {
        label: '推流地址',
        description: '提供给向房间推流的人的地址；留空则使用本服务器自己的地址。',
        accepts: '主机名或 IP 地址，可带 :端口；或留空。',
      },
      tsDisguisedAsPng: {
        label: '将直播视频分片伪装成图片',
        description: '把直播流的分片当作 PNG 图片提供，用于屏蔽视频文件的网络。',
      },
    },
    email: {
      whitelistEnabled: {
        label: '只允许指定的邮箱注册',
        description: '开启后，邮箱注册仅限下方列出的地址和域名（列表为空则不作限制）。',
      },
      whitelistDomains: {
        label: '允许的邮箱域名和地址',
        description: '允许用邮箱注册的域名（{{domain}}）和地址（{{address}}）。',
        accepts: '域名或邮箱地址，用逗号分隔；或留空。',
      },
    },
    webrtc: {
      externalIceServers: {
        label: '帮助建立通话的服务器（STUN/TURN）',
        description: '帮助处在不同网络中的人建立语音和视频通话的 STUN 和 TURN 服务器。',
        accepts: '服务器列表，每个服务器有一个或多个地址，如 stun:主机:端口 或 turn:主机:端口；TURN 服务器还需要用户名和凭据。',
      },
    },
    sfu: {
      maxSharesPerRoom: {
        label: '每个房间同时共享的屏幕数',
        description: '一个房间里同时最多可以有几个人共享屏幕。',
      },
      shareMaxKbps: {
        label: '一个共享屏幕的带宽（千比特每秒）',
        description: '一个共享屏幕（含声音）最多可以发送的码率。',
      },
      cameraMaxKbps: {
        label: '一个摄像头的带宽（千比特每秒）',
        description: '一个摄像头最多可以发送的码率。',
      },
      memberMaxKbps: {
        label: '每人的带宽（千比特每秒）',
        description: '一个人在通话中最多可以发送的码率，麦克风、摄像头和屏幕合计。',
      },
      roomMaxKbps: {
        label: '每个房间的带宽（千比特每秒）',
        description: '一个房间所有屏幕和摄像头合计最多可以发送的码率；超出时新的屏幕或摄像头会被拒绝。',
      },
      maxParticipantsPerRoom: {
        label: '一次通话的人数',
        description: '一个房间的通话里同时最多可以有多少人，观看或发言都算。',
      },
    },
    chat: {
      maxMessagesPerRoom: {
        label: '每个房间保留的聊天消息数',
        description: '每个房间保留多少条聊天消息；更早的会被删除。',
      },
      maxPinnedMessagesPerRoom: {
        label: '每个房间保留的置顶消息数',
        description: '每个房间保留多少条置顶的聊天消息。',
      },
      messageRetentionDays: {
        label: '聊天消息保留天数',
        description: '超过这么多天的聊天消息会被删除。',
      },
    },
    cors: {
      allowedOrigins: {
        label: '可以播放本站视频的其他网站',
        description: '可以在自己的页面中加载本服务器代理的视频和直播流的网站（启动时设置的地址之外）。',
        accepts: '网站地址列表，如 {{origin}}（协议、主机和可选的端口，后面不带其他内容）。',
        itemLabel: '网站地址',
      },
    },
  },
  choices: {
    room: {
      passwordPolicy: {
        optional: '可选',
        required: '必须',
        forbidden: '不允许',
      },
    },
  },
  accepts: {
    boolean: '开或关。',
    integer: '{{min}} 到 {{max}} 之间的整数。',
    integerNoLimit: '{{min}} 到 {{max}} 之间的整数；0 表示不限制。',
    choice: '以下之一：{{options}}。',
    optionSeparator: '、',
    permissions: '以下任意几项：{{permissions}}。',
    permissionSeparator: '；',
  },
};
