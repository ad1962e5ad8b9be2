/** Sources: list (one request, the API declares no paging), get, create, update (a full replace), delete. */
import { sourceSchema, sourceWriteSchema, type Source, type SourceWrite } from '../../schema';
import { resourceEndpoints } from './common';

const sources = resourceEndpoints<Source, SourceWrite>({
  kind: 'sources',
  noun: 'source',
  plural: 'sources',
  idName: 'sourceId',
  item: sourceSchema,
  create: sourceWriteSchema,
});

/** All sources. The API declares no paging here (no `limit`/`offset`): one request. */
export const listSources = sources.list;
export const getSource = sources.get;
export const createSource = sources.create;
/** Replaces a source (the kind may change). */
export const updateSource = sources.update;
/**
 * Deletes a source. The server neither refuses nor cascades: saved searches, alerts, dashboard tiles and other
 * sources that use it keep its ID.
 */
export const deleteSource = sources.delete;
