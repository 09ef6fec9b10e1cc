/**
 * Process roles of one `svc serve` (ARCHITECTURE "Shape"): operators scale each pool on its
 * own by running processes with different roles; no role means all of them. The transcoder
 * runs the shared transcodes of items browsers cannot decode (media/transcode/).
 */
export const ROLES = ['gateway', 'actors', 'worker', 'transcoder'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function resolveRoles(requested: readonly string[] | undefined): Role[] {
  if (!requested || requested.length === 0) return [...ROLES];
  const roles = new Set<Role>();
  for (const entry of requested.flatMap((value) => value.split(','))) {
    const role = entry.trim();
    if (!isRole(role)) throw new Error(`unknown role "${role}"; expected one of ${ROLES.join(', ')}`);
    roles.add(role);
  }
  return ROLES.filter((role) => roles.has(role));
}
