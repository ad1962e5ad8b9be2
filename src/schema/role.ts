/**
 * Roles of the service's observability UI (cloud API only). The list includes predefined roles,
 * which cannot be changed or deleted; the server also refuses to delete the team's default role
 * and roles assigned to users.
 */
import * as z from 'zod';
import { omitNullOr, requiredOr } from './ids';
import { lazySchema } from './lazySchema';

/** A string the body may leave out (null is named as such). */
const optionalText = (about: string) =>
  z
    .string({ error: omitNullOr('must be a string') })
    .optional()
    .describe(about);

/** A CASL permission: `action` on `subject`, denied instead of granted when `inverted`. */
export const rolePermissionSchema = lazySchema(() =>
  z.looseObject({
    action: z.string({ error: requiredOr('must be a string') }).describe('The action granted or denied, e.g. read.'),
    subject: z
      .string({ error: requiredOr('must be a string') })
      .describe('The resource it applies to, e.g. dashboard.'),
    inverted: z
      .boolean({ error: omitNullOr('must be true or false') })
      .optional()
      .describe('Deny rather than grant.'),
    integration: optionalText('Integration the permission is scoped to.'),
    conditions: z
      .record(z.string(), z.unknown(), { error: omitNullOr('must be an object') })
      .optional()
      .describe('CASL conditions.'),
  }),
);

const permissions = lazySchema(() =>
  z.array(rolePermissionSchema, { error: requiredOr('must be a list of permissions') }),
);

export const roleCreateSchema = lazySchema(() =>
  z.looseObject({
    name: z
      .string({ error: requiredOr('must be a string') })
      .describe('Unique within the team; not the name of a predefined role.'),
    description: optionalText('Description.'),
    permissions: permissions.describe('The permissions granted by the role.'),
  }),
);

export const roleUpdateSchema = lazySchema(() =>
  z.looseObject({
    name: optionalText('New name; left out: unchanged.'),
    description: optionalText('New description.'),
    permissions: permissions.describe('The replacement set of permissions.'),
  }),
);

export const roleSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    description: z.string().nullable().optional(),
    permissions: z.array(z.looseObject({ action: z.string(), subject: z.string() })),
    isPredefined: z.boolean().optional(),
    createdAt: z.string().nullable().optional(),
    updatedAt: z.string().nullable().optional(),
  }),
);

export type RoleCreate = z.input<typeof roleCreateSchema>;
export type RoleUpdate = z.input<typeof roleUpdateSchema>;
export type Role = z.infer<typeof roleSchema>;
export type RolePermission = z.infer<typeof rolePermissionSchema>;
