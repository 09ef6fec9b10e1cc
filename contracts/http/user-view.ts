/**
 * A user as the API shows it (the signed-in user, the admin list) and the service-wide role.
 */
import { z } from 'zod';

export const ServiceRole = z.enum(['root', 'admin', 'user']);
export type ServiceRole = z.infer<typeof ServiceRole>;

export const UserView = z
  .object({
    id: z.string(),
    username: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    role: ServiceRole,
    state: z.enum(['active', 'banned']),
    createdAt: z.string().meta({ format: 'date-time' }),
    lastLoginAt: z.string().nullable().meta({ format: 'date-time' }),
  })
  .meta({ id: 'User' });
