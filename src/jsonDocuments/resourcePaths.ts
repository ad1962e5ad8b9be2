/**
 * Paths of editable resource documents (pure: no `vscode`; `./uris` turns them into and out of `vscode.Uri`).
 *
 * Addresses of editable resource documents in the extension's own file system:
 *
 *   observability:/<connectionId>/<serviceId>/alerts/<alertId>/<Name>.alert.json
 *   observability:/<connectionId>/<serviceId>/alerts/new-<n>/<Name>.alert.json            (not created yet)
 *   observability:/<connectionId>/<serviceId>/dashboards/<dashboardId>/<Name>.dashboard.json
 *   observability:/<connectionId>/<serviceId>/dashboards/new-<n>/<Name>.new-dashboard.json (not created yet)
 *   observability:/<connectionId>/<serviceId>/query-endpoint/<Service>.query-endpoint.json
 *   observability:/<connectionId>/<serviceId>/webhooks/<id or new-<n>>/<Name>.webhook.json
 *   observability:/<connectionId>/<serviceId>/saved-searches/<id or new-<n>>/<Name>.saved-search.json
 *   observability:/<connectionId>/<serviceId>/sources/<id or new-<n>>/<Name>.source.json
 *   observability:/<connectionId>/<serviceId>/roles/<roleId>/<Name>.role.json
 *   observability:/<connectionId>/<serviceId>/roles/new-<n>/<Name>.new-role.json              (not created yet)
 *
 * Folders and suffixes are those of the kinds' registry (`../resources/kinds`).
 *
 * The last segment only makes the editor tab readable; the resource is identified by the segments before it. The
 * file name suffix selects the JSON Schema (`contributes.jsonValidation`).
 *
 * Tabs and breadcrumbs show the connection's label and the service's name in place of the first two IDs
 * (`Production/checkout-prod/alerts/…`) whenever those names lead back to exactly one connection and service; they
 * are looked up in the connections (`useServiceNames`), so an address survives a reload. Addresses with the IDs keep
 * resolving.
 */

export { RESOURCE_SCHEME } from '../constants';

import type { DocumentKind } from '../resources/model';
import { DOCUMENT_KINDS, KINDS } from '../resources/kinds';

export type { DocumentKind } from '../resources/model';

export interface ResourceRef {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly kind: DocumentKind;
  /** Resource ID; undefined for a resource that does not exist yet, and for the query endpoint. */
  readonly id?: string;
  /** `new-<n>` for a resource that does not exist yet. */
  readonly draftKey?: string;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A name usable as one path segment: no separators, no control characters, not too long. */
export function fileLabel(name: string | null | undefined, fallback: string): string {
  const cleaned = (name ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 80)
    .trim();
  return cleaned || fallback;
}

/** Connection labels and service names, both ways. */
export interface ServiceNames {
  /** The connection label and service name of IDs (raw; made path-safe here). */
  namesOf(
    connectionId: string,
    serviceId: string,
  ): { readonly connection: string; readonly service: string } | undefined;
  /** Every connection and service known, for the way back. */
  all(): readonly {
    readonly connectionId: string;
    readonly connection: string;
    readonly serviceId: string;
    readonly service: string;
  }[];
}

let serviceNames: ServiceNames | undefined;

/** Installs the lookup of readable names (the editors do so at activation). */
export function useServiceNames(names: ServiceNames | undefined): void {
  serviceNames = names;
}

/** The IDs a pair of readable path segments stands for, when exactly one connection and service have those names. */
function idsOfNames(connection: string, service: string): { connectionId: string; serviceId: string } | undefined {
  if (!serviceNames) return undefined;
  const hits = serviceNames
    .all()
    .filter(
      (e) => fileLabel(e.connection, e.connectionId) === connection && fileLabel(e.service, e.serviceId) === service,
    );
  return hits.length === 1 ? { connectionId: hits[0]!.connectionId, serviceId: hits[0]!.serviceId } : undefined;
}

/** The first two path segments of a resource: readable names when they lead back to these IDs, else the IDs. */
function servicePath(connectionId: string, serviceId: string): string {
  const names = serviceNames?.namesOf(connectionId, serviceId);
  if (names) {
    const connection = fileLabel(names.connection, connectionId);
    const service = fileLabel(names.service, serviceId);
    const back = idsOfNames(connection, service);
    if (back?.connectionId === connectionId && back.serviceId === serviceId && !isIdPair(connection, service)) {
      return `${connection}/${service}`;
    }
  }
  return `${connectionId}/${serviceId}`;
}

/** True when two segments are the IDs of a known connection and service (so names must not take that shape). */
function isIdPair(connection: string, service: string): boolean {
  return serviceNames?.all().some((e) => e.connectionId === connection && e.serviceId === service) ?? false;
}

export function isNew(ref: ResourceRef): boolean {
  return !KINDS[ref.kind].singleton && ref.id === undefined;
}

/** The path (below the scheme) of a resource document's address; `name` only makes the tab readable. */
export function resourcePath(ref: ResourceRef, name: string | null | undefined): string {
  const spec = KINDS[ref.kind];
  const idSegment = spec.singleton ? 'current' : (ref.id ?? ref.draftKey ?? 'new');
  const suffix = spec.singleton || ref.id ? spec.suffix : spec.newSuffix;
  const what = spec.label.charAt(0).toUpperCase() + spec.label.slice(1);
  const fallback = spec.singleton ? what : ref.id ? `${what} ${ref.id}` : `New ${spec.label}`;
  const label = fileLabel(name, fallback);
  return `/${servicePath(ref.connectionId, ref.serviceId)}/${spec.folder}/${idSegment}/${label}${suffix}`;
}

/** The resource the path of a document address (of the `observability` scheme) names, or undefined. */
export function parseResourcePath(path: string): ResourceRef | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length !== 5) return undefined;
  const [first, second, folder, idSegment, file] = parts as [string, string, string, string, string];
  // Addresses with IDs first (they always resolve), then readable names.
  const ids = isIdPair(first, second)
    ? { connectionId: first, serviceId: second }
    : (idsOfNames(first, second) ??
      (SEGMENT.test(first) && SEGMENT.test(second) ? { connectionId: first, serviceId: second } : undefined));
  if (!ids || !SEGMENT.test(idSegment)) return undefined;
  const { connectionId, serviceId } = ids;
  const draft = /^new(-\d+)?$/.test(idSegment);
  for (const kind of DOCUMENT_KINDS) {
    const spec = KINDS[kind];
    if (folder !== spec.folder) continue;
    if (spec.singleton) {
      return idSegment === 'current' && file.endsWith(spec.suffix) ? { connectionId, serviceId, kind } : undefined;
    }
    // A suffix shared by new and existing resources fits both; distinct ones tell them apart.
    if (draft && file.endsWith(spec.newSuffix)) return { connectionId, serviceId, kind, draftKey: idSegment };
    if (!draft && file.endsWith(spec.suffix) && (spec.suffix === spec.newSuffix || !file.endsWith(spec.newSuffix))) {
      return { connectionId, serviceId, kind, id: idSegment };
    }
    return undefined;
  }
  return undefined;
}

/** A key identifying the resource regardless of the readable file name. */
export function refKey(ref: ResourceRef): string {
  return `${ref.connectionId}/${ref.serviceId}/${KINDS[ref.kind].folder}/${ref.id ?? ref.draftKey ?? 'current'}`;
}

export function sameResource(a: ResourceRef, b: ResourceRef): boolean {
  return refKey(a) === refKey(b);
}
