/**
 * Draft-07 JSON Schema of alert files, generated at build time (esbuild.mjs) into dist/schemas/alert-file.schema.json.
 * Cross-field rules (superRefine) are not expressible here; the extension reports them itself.
 */
import * as z from 'zod';
import { resolveLazySchemas } from '../schema/lazySchema';
import { alertFileSchema } from './schema';

export function buildJsonSchemas(): Record<string, object> {
  const json = z.toJSONSchema(resolveLazySchemas(alertFileSchema), {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    // Fields a newer service returns are not flagged: the extension reports unknown keys itself.
    override: (ctx) => {
      if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
    },
  });
  // The target: a Cloud service (organizationId and serviceId) or a self-hosted deployment (baseUrl).
  const target = { anyOf: [{ required: ['organizationId', 'serviceId'] }, { required: ['baseUrl'] }] };
  return { 'alert-file': { ...json, ...target, title: 'Alert file (*.alert.json)' } };
}
