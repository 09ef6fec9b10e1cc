/**
 * The operator's switches for proxying (`proxy.movieProxy`, `proxy.liveProxy` for live items),
 * checked where proxied media is added or edited (the room) and where it is played or read
 * (the play endpoint, the proxy route): one check, one message naming the key.
 */
import { AppError } from '../../../errors/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { SettingsReader } from '../../../settings/index.js';

/** `forbidden` naming the switch when the operator turned this kind of proxying off. */
export function requireProxySwitch(settings: SettingsReader, item: Pick<MediaItem, 'live'>): void {
  const key = item.live ? 'proxy.liveProxy' : 'proxy.movieProxy';
  if (!settings.get(key)) {
    throw new AppError('forbidden', `proxied ${item.live ? 'livestreams are' : 'media is'} turned off on this server (${key})`);
  }
}
