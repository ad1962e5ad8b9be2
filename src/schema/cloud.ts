/**
 * Cloud platform objects used to pick an organization, a service and an API key.
 * Response schemas only; unknown fields are kept.
 */
import * as z from 'zod';
import { openEnum, uuidSchema } from './ids';
import { lazySchema } from './lazySchema';

export const SERVICE_STATES = [
  'starting',
  'stopping',
  'terminating',
  'softdeleting',
  'awaking',
  'partially_running',
  'provisioning',
  'running',
  'stopped',
  'terminated',
  'softdeleted',
  'degraded',
  'failed',
  'idle',
] as const;
export const API_KEY_STATES = ['enabled', 'disabled'] as const;

export const organizationSchema = lazySchema(() =>
  z.looseObject({
    id: uuidSchema,
    name: z.string(),
    createdAt: z.string().optional(),
  }),
);

export type Organization = z.infer<typeof organizationSchema>;

export const serviceEndpointSchema = lazySchema(() =>
  z.looseObject({
    protocol: z.string(),
    host: z.string(),
    port: z.number(),
    username: z.string().nullable().optional(),
  }),
);

export const serviceSchema = lazySchema(() =>
  z.looseObject({
    id: uuidSchema,
    name: z.string(),
    provider: z.string().optional(),
    region: z.string().optional(),
    state: openEnum(SERVICE_STATES).optional(),
    endpoints: z.array(serviceEndpointSchema).optional(),
    tags: z.array(z.looseObject({ key: z.string().optional(), value: z.string().optional() })).optional(),
    isReadonly: z.boolean().optional(),
    createdAt: z.string().optional(),
  }),
);

export type Service = z.infer<typeof serviceSchema>;

export const apiKeySchema = lazySchema(() =>
  z.looseObject({
    id: uuidSchema,
    name: z.string(),
    state: openEnum(API_KEY_STATES).optional(),
    keySuffix: z.string().optional(),
    createdAt: z.string().optional(),
    expireAt: z.string().nullable().optional(),
    usedAt: z.string().nullable().optional(),
  }),
);

export type ApiKey = z.infer<typeof apiKeySchema>;
