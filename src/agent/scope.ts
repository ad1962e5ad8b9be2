/**
 * Which saved connection and service a tool call means. The model names them as the connections tool lists them:
 * by ID or by label / service name (any case); either may be left out when there is only one to choose from.
 */
import { sanitizeServerText } from '../api';
import type { StoredConnection } from '../connections/types';

export interface Scope {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly connectionLabel: string;
  readonly serviceLabel: string;
  readonly selfHosted: boolean;
}

export interface ScopeInput {
  readonly connection?: unknown;
  readonly service?: unknown;
}

export class ScopeError extends Error {}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function label(c: StoredConnection): string {
  return sanitizeServerText(c.label) || c.id;
}

/** The services a connection shows: its selected service IDs with their names. */
export function servicesOf(c: StoredConnection): { id: string; name: string; state?: string }[] {
  return c.serviceIds.map((id) => {
    const summary = c.services.find((s) => s.id === id);
    return {
      id,
      name: c.kind === 'selfHosted' ? label(c) : sanitizeServerText(summary?.name) || id,
      ...(summary?.state ? { state: sanitizeServerText(summary.state) } : {}),
    };
  });
}

export function resolveConnection(list: readonly StoredConnection[], wanted: unknown): StoredConnection {
  const name = typeof wanted === 'string' && wanted.trim() ? wanted : undefined;
  if (list.length === 0) throw new ScopeError('No connection is saved. Add one with "Observability: Add Connection".');
  if (!name) {
    if (list.length === 1) return list[0]!;
    throw new ScopeError(`Name the connection: one of ${list.map((c) => `"${label(c)}"`).join(', ')}.`);
  }
  const found = list.find((c) => c.id === name) ?? list.find((c) => same(c.label, name));
  if (!found) {
    throw new ScopeError(
      `No connection is named "${sanitizeServerText(name, 80)}". Saved connections: ${list.map((c) => `"${label(c)}"`).join(', ')}.`,
    );
  }
  return found;
}

export function resolveScope(list: readonly StoredConnection[], input: ScopeInput): Scope {
  const connection = resolveConnection(list, input.connection);
  const services = servicesOf(connection);
  const name = typeof input.service === 'string' && input.service.trim() ? input.service : undefined;
  let service: { id: string; name: string } | undefined;
  if (connection.kind === 'selfHosted' || (!name && services.length === 1)) service = services[0];
  else if (!name) {
    throw new ScopeError(
      services.length === 0
        ? `The connection "${label(connection)}" shows no service yet.`
        : `Name the service of "${label(connection)}": one of ${services.map((s) => `"${s.name}"`).join(', ')}.`,
    );
  } else {
    service = services.find((s) => same(s.id, name)) ?? services.find((s) => same(s.name, name));
  }
  if (!service) {
    throw new ScopeError(
      `The connection "${label(connection)}" shows no service named "${sanitizeServerText(name, 80)}". Its services: ${services.map((s) => `"${s.name}"`).join(', ') || '(none)'}.`,
    );
  }
  return {
    connectionId: connection.id,
    serviceId: service.id,
    connectionLabel: label(connection),
    serviceLabel: service.name,
    selfHosted: connection.kind === 'selfHosted',
  };
}

/** "service on connection" as the results name it. */
export function scopeName(scope: Scope): string {
  return scope.selfHosted ? `"${scope.connectionLabel}"` : `"${scope.serviceLabel}" on "${scope.connectionLabel}"`;
}
