import { KINDS, ordered } from '../resources/kinds';
import type { DocumentKind } from './uris';

/** Turning server responses into editable document text, and comparing versions. */

/** The write body a server object is edited as: read-only fields removed, secrets masked, friendly key order. */
export function editableValue(kind: DocumentKind, server: unknown): Record<string, unknown> {
  return KINDS[kind].editable(server);
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
  return { after: ordered({ ...after, ...body }, KINDS.alert.order), kept };
}

export { dashboardTemplate, queryEndpointTemplate } from '../resources/kinds';

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
