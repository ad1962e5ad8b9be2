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
  withNames(json as JsonObject);
  withNewerFields(json as JsonObject);
  // The target: a Cloud service (organizationId and serviceId) or a self-hosted deployment (baseUrl).
  const target = { anyOf: [{ required: ['organizationId', 'serviceId'] }, { required: ['baseUrl'] }] };
  return { 'alert-file': { ...json, ...target, title: 'Alert file (*.alert.json)' } };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NAME_TEXT = { type: 'string', minLength: 1 };

const NEWER_ONLY =
  'Self-hosted HyperDX (newer versions) only: ClickHouse Cloud refuses it, an older deployment refuses or ignores it (the extension warns; the server decides).';

/**
 * Fields only newer self-hosted HyperDX versions accept (schema/serverRules.ts): offered here so that editing them is
 * helped; the extension's own checks say, per target, whether they are an error (Cloud) or a warning (self-hosted).
 */
function withNewerFields(root: JsonObject): void {
  const properties = root.properties as JsonObject;
  const source = properties.source;
  if (isObject(source) && Array.isArray(source.enum)) {
    source.enum = [...(source.enum as string[]), 'inline'];
    source.description = `${String(source.description ?? '')} "inline" (with a chartConfig): ${NEWER_ONLY}`;
  }
  properties.chartConfig = {
    type: 'object',
    description: `The chart an inline alert watches (source "inline"; a line, stacked_bar or number chart). ${NEWER_ONLY}`,
  };
  properties.displayName = {
    type: 'string',
    minLength: 1,
    maxLength: 512,
    description: `Name shown for the alert (1–512 characters; derived from the saved search or tile when omitted). ${NEWER_ONLY}`,
  };
  properties.tags = { type: 'array', items: { type: 'string' }, description: `Tags of the alert. ${NEWER_ONLY}` };
}

/**
 * The by-name forms of the file (see names.ts): `webhookName` beside `webhookId` in each webhook channel, and
 * `savedSearchName` beside `savedSearchId`, exactly one of each pair.
 */
function withNames(root: JsonObject): void {
  const properties = root.properties as JsonObject;
  properties.savedSearchName = {
    ...NAME_TEXT,
    description:
      'Saved search to watch, by its name on the target service (instead of savedSearchId). Looked up on each service the file is applied to; it must name exactly one saved search there.',
  };
  root.not = { required: ['savedSearchId', 'savedSearchName'] };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isObject(node)) return;
    const props = node.properties;
    if (isObject(props) && isObject(props.type) && props.type.const === 'webhook' && isObject(props.webhookId)) {
      props.webhookName = {
        ...NAME_TEXT,
        description:
          'Webhook by its name on the target service (instead of webhookId). Looked up on each service the file is applied to; it must name exactly one webhook there.',
      };
      const required = Array.isArray(node.required) ? (node.required as string[]) : [];
      node.required = required.filter((key) => key !== 'webhookId');
      node.oneOf = [{ required: ['webhookId'] }, { required: ['webhookName'] }];
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(root);
}
