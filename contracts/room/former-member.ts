/**
 * Who the kept records of a closed account name (docs/2026-11-26-profiles-and-accounts.md, the
 * close-account table): its chat messages and danmaku are by `FORMER_MEMBER`; its votes and
 * reactions, which still count, each get an id of their own under `FORMER_MEMBER_ID_PREFIX`
 * (random, so they do not link to each other or to the account, and two former members' votes
 * on one thing stay two). No account ever has such an id. A leaf module.
 */
export const FORMER_MEMBER = Object.freeze({ userId: 'former-member', name: 'Former member' } as const);

export const FORMER_MEMBER_ID_PREFIX = 'former-member:';

