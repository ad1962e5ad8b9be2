import { alertToWriteBody, dashboardToUpdateBody, type Alert, type Dashboard, type QueryEndpoint } from '../schema';
import type { DocumentKind } from './uris';

/** Turning server responses into editable document text, and comparing versions. */

const ALERT_ORDER = [
  'name',
  'source',
  'dashboardId',
  'tileId',
  'savedSearchId',
  'groupBy',
  'threshold',
  'thresholdMax',
  'thresholdType',
  'interval',
  'channel',
  'channels',
  'message',
  'note',
  'numConsecutiveWindows',
  'scheduleOffsetMinutes',
  'scheduleStartAt',
];
const DASHBOARD_ORDER = [
  'name',
  'tags',
  'tiles',
  'containers',
  'filters',
  'savedQuery',
  'savedQueryLanguage',
  'savedFilterValues',
];

function ordered(body: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in body) out[key] = body[key];
  for (const [key, value] of Object.entries(body)) if (!(key in out)) out[key] = value;
  return out;
}

/** The write body a server object is edited as: read-only fields removed, friendly key order. */
export function editableValue(kind: DocumentKind, server: unknown): Record<string, unknown> {
  switch (kind) {
    case 'alert':
      return ordered(alertToWriteBody(server as Alert), ALERT_ORDER);
    case 'dashboard':
      return ordered(dashboardToUpdateBody(server as Dashboard), DASHBOARD_ORDER);
    case 'queryEndpoint': {
      const endpoint = server as QueryEndpoint | null;
      if (!endpoint) return queryEndpointTemplate();
      const { roles, openApiKeys, allowedOrigins } = endpoint;
      return { roles, openApiKeys, allowedOrigins: allowedOrigins ?? '' };
    }
  }
}

/**
 * What an alert holds after an update with `body`: the service keeps the optional fields an update leaves out
 * (`kept`, those with a value now), and takes the rest from the body. `channel` and `channels` go together: a body
 * with either replaces both.
 */
export function alertAfterUpdate(
  current: Record<string, unknown>,
  body: Record<string, unknown>,
): { after: Record<string, unknown>; kept: string[] } {
  const after: Record<string, unknown> = {};
  const kept: string[] = [];
  const bodyHasChannel = 'channel' in body || 'channels' in body;
  for (const [key, value] of Object.entries(current)) {
    if (key in body || value === null || value === undefined) continue;
    if ((key === 'channel' || key === 'channels') && bodyHasChannel) continue;
    after[key] = value;
    kept.push(key);
  }
  return { after: ordered({ ...after, ...body }, ALERT_ORDER), kept };
}

export function queryEndpointTemplate(): Record<string, unknown> {
  return { roles: ['sql_console_read_only'], openApiKeys: [], allowedOrigins: '' };
}

export function dashboardTemplate(name = 'New dashboard'): Record<string, unknown> {
  return {
    name,
    tags: [],
    tiles: [
      {
        name: 'Notes',
        x: 0,
        y: 0,
        w: 12,
        h: 4,
        config: { displayType: 'markdown', markdown: 'Describe what this dashboard shows.' },
      },
    ],
  };
}

export function toText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function editableText(kind: DocumentKind, server: unknown): string {
  return toText(editableValue(kind, server));
}

/** JSON with sorted keys, for comparing versions regardless of key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return v;
  });
}

export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
