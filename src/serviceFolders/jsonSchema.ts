/**
 * Draft-07 JSON Schemas of service folder files, generated at build time (esbuild.mjs) into dist/schemas/: the target
 * file, and per kind the write body with the folder's own fields (`id`, `$schema`) and the name field beside each ID
 * field it may replace (`sourceName` beside `sourceId`, …; the ID is then no longer required). The alerts of a folder
 * are `*.alert.json` files, which the alert-file schema claims by name, so they get theirs from the plan's checks.
 */
import * as z from 'zod';
import { resolveLazySchemas } from '../schema/lazySchema';
import { savedSearchWriteSchema, sourceWriteSchema, webhookWriteSchema, dashboardWriteSchema } from '../schema';
import { targetFileSchema } from './schema';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toJson(schema: z.ZodType): JsonObject {
  return z.toJSONSchema(resolveLazySchemas(schema), {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
      if (ctx.zodSchema._zod.def.type === 'undefined') {
        for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
        ctx.jsonSchema.not = {};
      }
    },
  }) as JsonObject;
}

const ID_TO_NAME: Record<string, string> = {
  sourceId: 'sourceName',
  logSourceId: 'logSourceName',
  traceSourceId: 'traceSourceName',
  metricSourceId: 'metricSourceName',
  sessionSourceId: 'sessionSourceName',
  appliesToSourceIds: 'appliesToSourceNames',
};

/** Adds the name field beside each ID field a folder file may name by name, anywhere in the schema. */
function withNames(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(withNames);
    return;
  }
  if (!isObject(node)) return;
  const props = node.properties;
  if (isObject(props)) {
    for (const [idKey, nameKey] of Object.entries(ID_TO_NAME)) {
      if (!(idKey in props)) continue;
      const many = nameKey.endsWith('Names');
      props[nameKey] = many
        ? {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            description: `By name, instead of ${idKey}: looked up on the service the folder is applied to.`,
          }
        : {
            type: 'string',
            minLength: 1,
            description: `By name, instead of ${idKey}: looked up on the service the folder is applied to.`,
          };
      if (Array.isArray(node.required)) node.required = (node.required as string[]).filter((k) => k !== idKey);
    }
  }
  for (const value of Object.values(node)) withNames(value);
}

function folderFile(schema: z.ZodType, title: string): JsonObject {
  const json = toJson(schema);
  withNames(json);
  const props = (json.properties ?? {}) as JsonObject;
  json.properties = {
    $schema: { type: 'string', description: 'JSON Schema of this file, for tools outside VS Code. Optional.' },
    id: {
      type: 'string',
      description: "The resource on the folder's own service. Written after a create; leave it out for a new resource.",
    },
    ...props,
  };
  return { ...json, title };
}

export function buildJsonSchemas(): Record<string, object> {
  return {
    'service-folder-target': {
      ...toJson(targetFileSchema),
      title: 'Service folder target (service.observability.json)',
    },
    'service-folder-source': folderFile(sourceWriteSchema, 'Source of a service folder'),
    'service-folder-saved-search': folderFile(savedSearchWriteSchema, 'Saved search of a service folder'),
    'service-folder-webhook': folderFile(webhookWriteSchema, 'Webhook of a service folder'),
    'service-folder-dashboard': folderFile(dashboardWriteSchema, 'Dashboard of a service folder'),
  };
}
