/**
 * The service query endpoint (create-or-update with POST, read with GET, remove with DELETE).
 * `openApiKeys` holds the UUIDs of cloud API keys (the `id` from the key list), not key IDs.
 */
import * as z from 'zod';
import { openEnum, uuidSchema } from './ids';
import { lazySchema } from './lazySchema';

export const QUERY_ENDPOINT_ROLES = ['sql_console_read_only', 'sql_console_admin'] as const;
export type QueryEndpointRole = (typeof QUERY_ENDPOINT_ROLES)[number];

/**
 * Comma-separated allowed origins. The empty string is allowed and means backend-only
 * (no CORS); otherwise every entry must be non-empty and free of spaces ("*" allows all).
 */
export const allowedOriginsSchema = lazySchema(() =>
  z
    .string()
    .max(4096, { error: 'must be at most 4096 characters' })
    .superRefine((value, ctx) => {
      if (value === '') return;
      value.split(',').forEach((entry, index) => {
        const origin = entry.trim();
        if (origin === '') {
          ctx.addIssue({ code: 'custom', message: `entry ${index + 1} is empty (remove the extra comma)` });
        } else if (/\s/.test(origin)) {
          ctx.addIssue({ code: 'custom', message: `entry ${index + 1} ("${origin}") must not contain spaces` });
        }
      });
    })
    .describe('Allowed origins as a comma-separated list of domains; "" = backend-only (no CORS), "*" = any.'),
);

function noDuplicates(label: string) {
  return (values: readonly string[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    values.forEach((value, index) => {
      const key = value.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index], message: `duplicate ${label} "${value}"` });
      seen.add(key);
    });
  };
}

/**
 * Body of the query endpoint upsert. Strict: unknown keys are rejected (the body is built from
 * three known fields, see the editors). As in the API document, no field is required, and a list
 * may be empty: `openApiKeys: []` revokes every key, `roles: []` grants no role.
 */
export const queryEndpointWriteSchema = lazySchema(() =>
  z
    .strictObject({
      roles: z
        .array(
          z
            .enum(QUERY_ENDPOINT_ROLES, { error: `must be one of ${QUERY_ENDPOINT_ROLES.join(', ')}` })
            .describe('Role granted to queries through the endpoint.'),
        )
        .superRefine(noDuplicates('role'))
        .describe('Roles of the endpoint: "sql_console_read_only" and/or "sql_console_admin" ([] = none).')
        .optional(),
      openApiKeys: z
        .array(uuidSchema.describe('UUID of a cloud API key (the "id" in the key list, not the key ID).'))
        .superRefine(noDuplicates('API key'))
        .describe('UUIDs of the API keys allowed to call the endpoint ([] revokes every key).')
        .optional(),
      allowedOrigins: allowedOriginsSchema.optional(),
    })
    .describe('Service query endpoint body.'),
);

export type QueryEndpointWrite = z.infer<typeof queryEndpointWriteSchema>;

/** The query endpoint as returned by the service. Unknown fields are kept. */
export const queryEndpointSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    roles: z.array(openEnum(QUERY_ENDPOINT_ROLES)),
    openApiKeys: z.array(z.string()),
    allowedOrigins: z.string().nullable().optional(),
  }),
);

export type QueryEndpoint = z.infer<typeof queryEndpointSchema>;
