/**
 * A person's avatar: their uploaded picture (served re-encoded by the server under
 * /media/avatars) over their initials, which show when they have none or it fails to load.
 * Decorative: the name always sits beside it.
 */
import { signal } from '@preact/signals';
import { useState } from 'preact/hooks';

export type AvatarSize = 'small' | 'large';

/** Bumped when the signed-in user changes their avatar, so every <Avatar> asks again. */
export const avatarVersion = signal(0);
/** Users known to have no avatar at a version: one request per person, not one per chat line. */
const missing = new Set<string>();

export function initials(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words.at(-1)!] : words;
  return letters.map((word) => [...word][0]!.toLocaleUpperCase()).join('').slice(0, 4) || '?';
}

export function Avatar(props: { userId: string; name: string; size?: AvatarSize; guest?: boolean }) {
  const size = props.size ?? 'small';
  const version = avatarVersion.value;
  const key = `${props.userId}\0${version}`;
  const [, setFailed] = useState(0);
  const showImage = !props.guest && !missing.has(key);
  return (
    <span class={`avatar avatar-${size}`} aria-hidden="true">
      <span class="avatar-initials">{initials(props.name)}</span>
      {showImage && (
        <img
          src={`/media/avatars/${encodeURIComponent(props.userId)}/${size}${version > 0 ? `?v=${version}` : ''}`}
          alt=""
          width={size === 'large' ? 96 : 28}
          height={size === 'large' ? 96 : 28}
          loading="lazy"
          decoding="async"
          onError={() => {
            missing.add(key);
            setFailed((count) => count + 1);
          }}
        />
      )}
    </span>
  );
}
