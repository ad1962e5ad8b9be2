/**
 * Where a resource of a service stands against the service folders pulled from it: one URI per service and per
 * resource, set as the Observability tree items' `resourceUri` and decorated by the service folders' drift (the same
 * file-decoration provider that marks the files in the Explorer). No vscode import: callers parse the string.
 */

/** The scheme of the URIs below (decorations only; nothing opens them). */
export const RESOURCE_DRIFT_SCHEME = 'observability-drift';

/** The kinds of resources a service folder holds files for. */
export type DriftResourceKind = 'source' | 'savedSearch' | 'webhook' | 'dashboard' | 'alert';

/**
 * `observability-drift:/<connection>/<service>` for a service, `…/<kind>/<id>` for one of its resources (each part
 * percent-encoded, so an id with a slash stays one part).
 */
export function resourceDriftUri(
  connectionId: string,
  serviceId: string,
  resource?: { readonly kind: DriftResourceKind; readonly id: string },
): string {
  const parts = [connectionId, serviceId, ...(resource ? [resource.kind, resource.id] : [])];
  return `${RESOURCE_DRIFT_SCHEME}:/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}
