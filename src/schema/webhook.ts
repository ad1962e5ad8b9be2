/**
 * Webhooks: the response (unknown fields kept) and the create/update body (the server's
 * `externalWebhookCreateSchema` and URL checks). Headers and query parameters are write-only and
 * never returned. Unknown keys of a body are kept and sent (the server drops the ones it does not know).
 */
import * as z from 'zod';
import { omitNullOr, openEnum, requiredOr } from './ids';
import { withoutReadOnlyAndNulls } from './writeBody';
import { lazySchema } from './lazySchema';

export const WEBHOOK_SERVICES = ['slack', 'incidentio', 'generic', 'slack_api', 'pagerduty_api'] as const;
export type WebhookService = (typeof WEBHOOK_SERVICES)[number];

export const webhookSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    service: openEnum(WEBHOOK_SERVICES),
    url: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    createdAt: z.string().nullable().optional(),
    updatedAt: z.string().nullable().optional(),
  }),
);

export type Webhook = z.infer<typeof webhookSchema>;

/** Services a webhook can be created with; the response may also carry `slack_api` and `pagerduty_api`. */
export const WEBHOOK_WRITE_SERVICES = ['slack', 'incidentio', 'generic'] as const;
export const WEBHOOK_LIMITS = {
  name: 1024,
  url: 2048,
  description: 2048,
  body: 16 * 1024,
  headerName: 256,
  headerValue: 4096,
  queryParamKey: 1024,
  queryParamValue: 4096,
  headers: 100,
  queryParams: 100,
} as const;
/** Fields the server refuses on a slack webhook (it posts a fixed payload). */
export const SLACK_UNSUPPORTED_FIELDS = ['headers', 'queryParams', 'body'] as const;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\r\n\t\x00-\x1F\x7F]/;
const HEADER_NAME = /^[!#$%&'*+\-.0-9A-Z^_`a-z|~]+$/;

const max = (n: number) => ({ error: `must be at most ${n} characters` });

const webhookHeaderName = lazySchema(() =>
  z
    .string()
    .min(1, { error: 'Header name cannot be empty' })
    .max(WEBHOOK_LIMITS.headerName, max(WEBHOOK_LIMITS.headerName))
    .regex(HEADER_NAME, { error: "Invalid header name. Only alphanumeric characters and !#$%&'*+-.^_`|~ are allowed" })
    .refine((name) => !/^\d/.test(name), { error: 'Header name cannot start with a number' }),
);
const webhookHeaderValue = lazySchema(() =>
  z
    .string()
    .max(WEBHOOK_LIMITS.headerValue, max(WEBHOOK_LIMITS.headerValue))
    .refine((v) => !CONTROL_CHARS.test(v), { error: 'Header values cannot contain control characters' }),
);
const webhookQueryKey = lazySchema(() =>
  z
    .string()
    .min(1, { error: 'Query parameter name cannot be empty' })
    .max(WEBHOOK_LIMITS.queryParamKey, max(WEBHOOK_LIMITS.queryParamKey))
    .refine((v) => !CONTROL_CHARS.test(v), { error: 'Query parameter names cannot contain control characters' }),
);
const webhookQueryValue = lazySchema(() =>
  z
    .string()
    .max(WEBHOOK_LIMITS.queryParamValue, max(WEBHOOK_LIMITS.queryParamValue))
    .refine((v) => !CONTROL_CHARS.test(v), { error: 'Query parameter values cannot contain control characters' }),
);

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The last two labels of the host name (`hooks.slack.com` -> `slack.com`), as the server compares them. */
function registrableDomain(url: URL): string {
  const parts = url.hostname.split('.');
  return parts.length >= 2 ? parts.slice(-2).join('.') : url.hostname;
}

/**
 * Create and update (PUT, a full replace) body. `description` and `body` left out are cleared on
 * update; `headers` and `queryParams` left out are kept unless `url` or `service` changes, `{}`
 * clears them. The server also refuses URLs of private, loopback and reserved addresses unless its
 * operator allows them, and a second webhook with the same service and name: it says so.
 */
export const webhookWriteSchema = lazySchema(() =>
  z
    .looseObject({
      name: z
        .string({ error: requiredOr('must be a string') })
        .refine((v) => v.trim().length > 0, { error: 'must not be empty' })
        .refine((v) => v.trim().length <= WEBHOOK_LIMITS.name, max(WEBHOOK_LIMITS.name))
        .describe('Webhook name; unique per service. Leading and trailing spaces are removed by the server.'),
      service: z
        .enum(WEBHOOK_WRITE_SERVICES, { error: `must be one of ${WEBHOOK_WRITE_SERVICES.join(', ')}` })
        .describe('Webhook service type.'),
      url: z
        .string({ error: requiredOr('must be a string') })
        .max(WEBHOOK_LIMITS.url, max(WEBHOOK_LIMITS.url))
        .refine((v) => parseUrl(v) !== undefined, { error: 'must be a valid URL' })
        .refine(
          (v) => {
            const u = parseUrl(v);
            return u === undefined || u.protocol === 'http:' || u.protocol === 'https:';
          },
          { error: 'must use http or https' },
        )
        .describe('Destination URL (slack: a slack.com URL).'),
      description: z
        .string({ error: omitNullOr('must be a string') })
        .max(WEBHOOK_LIMITS.description, max(WEBHOOK_LIMITS.description))
        .optional()
        .describe('Shown in the UI. Left out on update: cleared.'),
      body: z
        .string({ error: omitNullOr('must be a string') })
        .max(WEBHOOK_LIMITS.body, max(WEBHOOK_LIMITS.body))
        .optional()
        .describe('Request body template (generic and incidentio only). Left out on update: cleared.'),
      headers: z
        .record(webhookHeaderName, webhookHeaderValue)
        .refine((m) => Object.keys(m).length <= WEBHOOK_LIMITS.headers, {
          error: `A webhook cannot have more than ${WEBHOOK_LIMITS.headers} headers`,
        })
        .optional()
        .describe(
          'Write-only headers (never returned). Left out on update: kept unless url or service changes; {} clears them.',
        ),
      queryParams: z
        .record(webhookQueryKey, webhookQueryValue)
        .refine((m) => Object.keys(m).length <= WEBHOOK_LIMITS.queryParams, {
          error: `A webhook cannot have more than ${WEBHOOK_LIMITS.queryParams} query parameters`,
        })
        .optional()
        .describe('Write-only query parameters (never returned). Same update rules as headers.'),
    })
    .superRefine((value, ctx) => {
      if (value.service !== 'slack') return;
      for (const field of SLACK_UNSUPPORTED_FIELDS) {
        if (value[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} is not supported for the slack webhook service`,
          });
        }
      }
      const url = typeof value.url === 'string' ? parseUrl(value.url) : undefined;
      if (url && registrableDomain(url) !== 'slack.com') {
        ctx.addIssue({
          code: 'custom',
          path: ['url'],
          message: "a slack webhook URL must have a host name that ends in 'slack.com'",
        });
      }
    }),
);

export type WebhookWrite = z.input<typeof webhookWriteSchema>;

/** Fields of a webhook response that are not part of its body. */
export const WEBHOOK_READ_ONLY_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

/**
 * An update body from a webhook as read: read-only fields and nulls left out. Headers and query
 * parameters are never returned, so the body leaves them out and the server keeps them.
 */
export function webhookToWriteBody(webhook: Webhook): Record<string, unknown> {
  return withoutReadOnlyAndNulls(webhook, WEBHOOK_READ_ONLY_FIELDS);
}
