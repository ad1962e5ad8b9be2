import type { ObservabilityApi, RequestOptions } from '../api';
import { KINDS } from './kinds';
import type { DocumentKind } from './model';

/**
 * How each kind of resource is read, created and updated on the service: one entry per document kind, the table the
 * write pipeline (src/writes) and the resource documents' loader both go through. Pure: no `vscode`.
 */

/** A response the client gives: the parsed data and the request ID. */
export interface WriteAnswer<T = unknown> {
  readonly data: T;
  readonly requestId?: string;
}

export interface KindWriteRequests {
  /**
   * The service's current version (`null`: a singleton that does not exist yet). Singletons (the query endpoint) are
   * read without an ID.
   */
  get(client: ObservabilityApi, serviceId: string, id: string | undefined): Promise<WriteAnswer>;
  create(client: ObservabilityApi, serviceId: string, body: unknown, options?: RequestOptions): Promise<WriteAnswer>;
  update(
    client: ObservabilityApi,
    serviceId: string,
    id: string | undefined,
    body: unknown,
    options?: RequestOptions,
  ): Promise<WriteAnswer>;
}

function need(id: string | undefined): string {
  if (id === undefined) throw new Error('An update needs the resource ID.');
  return id;
}

/** The plain kinds (webhooks, saved searches, sources, roles) through `KINDS[kind].requests`. */
function plain(kind: DocumentKind): KindWriteRequests {
  const requests = KINDS[kind].requests;
  if (!requests) throw new Error(`No requests for a ${KINDS[kind].label}.`);
  return {
    get: (c, s, id) => requests.get(c, s, need(id)),
    create: (c, s, body) => requests.create(c, s, body),
    update: (c, s, id, body) => requests.update(c, s, need(id), body),
  };
}

export const WRITE_REQUESTS: { readonly [K in DocumentKind]: KindWriteRequests } = {
  alert: {
    get: (c, s, id) => c.getAlert(s, need(id)),
    create: (c, s, body, o) => c.createAlert(s, body as never, o),
    update: (c, s, id, body, o) => c.updateAlert(s, need(id), body as never, o),
  },
  dashboard: {
    get: (c, s, id) => c.getDashboard(s, need(id)),
    create: (c, s, body, o) => c.createDashboard(s, body as never, o),
    update: (c, s, id, body, o) => c.updateDashboard(s, need(id), body as never, o),
  },
  queryEndpoint: {
    get: (c, s) => c.getQueryEndpoint(s),
    // One upsert both creates and replaces the endpoint.
    create: (c, s, body, o) => c.upsertQueryEndpoint(s, body as never, o),
    update: (c, s, _id, body, o) => c.upsertQueryEndpoint(s, body as never, o),
  },
  webhook: plain('webhook'),
  savedSearch: plain('savedSearch'),
  source: plain('source'),
  role: plain('role'),
};
