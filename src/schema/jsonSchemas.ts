/**
 * Draft-07 JSON Schemas of the write bodies, for validation and hover docs in the editor.
 * Generated at build time (see esbuild.mjs) into dist/schemas/<name>.schema.json, so the
 * extension itself never loads the generator.
 *
 * Cross-field rules (superRefine) cannot be expressed here; the extension reports them from
 * the zod schemas when a body is validated before sending.
 */
import * as z from 'zod';
import { alertWriteSchema } from './alert';
import { dashboardUpdateSchema, dashboardWriteSchema } from './dashboard';
import { resolveLazySchemas } from './lazySchema';
import { queryEndpointWriteSchema } from './queryEndpoint';
import { roleCreateSchema, roleUpdateSchema } from './role';
import { savedSearchWriteSchema } from './savedSearch';
import { sourceWriteSchema } from './source';
import { webhookWriteSchema } from './webhook';

const WRITE_SCHEMAS: Record<string, { schema: z.ZodType; title: string }> = {
  alert: { schema: alertWriteSchema, title: 'Alert (create and update body)' },
  dashboard: { schema: dashboardWriteSchema, title: 'Dashboard (create body)' },
  'dashboard-update': { schema: dashboardUpdateSchema, title: 'Dashboard (update body)' },
  'query-endpoint': { schema: queryEndpointWriteSchema, title: 'Service query endpoint (upsert body)' },
  webhook: { schema: webhookWriteSchema, title: 'Webhook (create and update body)' },
  'saved-search': { schema: savedSearchWriteSchema, title: 'Saved search (create and update body)' },
  source: { schema: sourceWriteSchema, title: 'Source (create and update body)' },
  role: { schema: roleCreateSchema, title: 'Role (create body)' },
  'role-update': { schema: roleUpdateSchema, title: 'Role (update body)' },
};

/** Builds the JSON Schemas, keyed by file base name (`alert` -> alert.schema.json). */
export function buildJsonSchemas(): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [name, { schema, title }] of Object.entries(WRITE_SCHEMAS)) {
    const json = z.toJSONSchema(resolveLazySchemas(schema), {
      target: 'draft-7',
      io: 'input',
      unrepresentable: 'any',
      override: (ctx) => {
        // Fields a newer service returns must not be flagged in the editor: unknown keys are reported by the extension,
        // which tells the ones the service sent from the ones the user typed.
        if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
        // Builder tile configs forbid `configType`; an optional `undefined` means "must be absent".
        if (ctx.zodSchema._zod.def.type === 'undefined') {
          for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
          ctx.jsonSchema.not = {};
        }
      },
    });
    out[name] = { ...json, title };
  }
  return out;
}
