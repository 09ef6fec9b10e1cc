/**
 * Latin-script words a Chinese sentence keeps as they are: names of products, protocols and
 * formats, and abbreviations Chinese software writes in Latin letters. The catalogue test takes
 * any other Latin word in a Chinese string for English left untranslated.
 */
export const KEPT_TERMS: readonly string[] = [
  'svc', 'ID', 'URL', 'HTTP', 'HTTPS', 'API', 'JSON', 'CSV', 'UTC', 'IP',
  'HLS', 'DASH', 'FLV', 'MP4', 'MKV', 'WebM', 'RTMP', 'WebRTC', 'TURN', 'STUN', 'ICE',
  'SRT', 'VTT', 'WebVTT', 'ASS', 'SSA', 'CC', 'MiB', 'KB', 'MB', 'GB', 'ms', 'fps',
  'YouTube', 'WebDAV', 'Alist', 'OpenList', 'Jellyfin', 'Emby', 'OBS',
  'OAuth2', 'OIDC', 'OpenID', 'TOTP', 'PostgreSQL', 'Redis', 'NATS', 'Temporal', 'SMTP',
  'PNG', 'JPEG', 'GIF', 'WebP', 'AVIF', 'emoji',
  'localhost', 'KiB', 'Alt', 'WebSocket', 'H.264', 'AAC', 'RTSP',
  'm3u8', 'mpd', 'dav', 'Nextcloud', 'ownCloud', 'Synology', 'rclone',
  'GitHub',
];
