/**
 * Every PostgreSQL advisory-lock key the service takes, in one place so two subsystems can
 * never pick the same number by accident. Keys are signed 64-bit integers passed as text
 * (`$1::bigint`) because JavaScript numbers cannot hold all of them.
 */
export const advisoryLocks = {
  /** Session lock held while migrations run; concurrent replicas queue behind it. ASCII "svc-migr". */
  migrations: '8319946408373872498',
  /**
   * Transaction lock held by every settings write. Row locks cannot protect a key that has
   * no row yet, so two first writes of one key would both record "was default" in history
   * without it. ASCII "svc-sett".
   */
  settingsWrite: '8319946408474276980',
  /**
   * Transaction lock held by every change of a service role or of a root's state, so "is
   * another active root left?" cannot be answered for two changes at once. ASCII "svc-role".
   */
  serviceRoles: '8319946408458153061',
} as const;

/**
 * Namespaces of two-key advisory locks, `(namespace, hashtext(id))`, for locks per entity.
 * PostgreSQL keeps the two-key space disjoint from the single-bigint keys above.
 */
export const advisoryLockNamespaces = {
  /** Serialises room creation and ownership transfer per owner, for server.maxRoomsPerUser. ASCII "room". */
  roomOwner: 0x726f6f6d,
  /** Chat retention of one room; taken with try-lock so concurrent runs split the work. ASCII "chat". */
  chatRetention: 0x63686174,
  /** A username while an account or a pending review claims it (users and reviews are two tables). ASCII "user". */
  username: 0x75736572,
} as const;
