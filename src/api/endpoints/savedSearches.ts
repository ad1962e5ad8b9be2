/** Saved searches: list (paged by `limit`/`offset`), get, create, update (a full replace), delete. */
import { savedSearchSchema, savedSearchWriteSchema, type SavedSearch, type SavedSearchWrite } from '../../schema';
import { resourceEndpoints } from './common';

const savedSearches = resourceEndpoints<SavedSearch, SavedSearchWrite>({
  kind: 'saved-searches',
  noun: 'saved search',
  plural: 'saved searches',
  idName: 'savedSearchId',
  item: savedSearchSchema,
  create: savedSearchWriteSchema,
});

/** All saved searches, page by page (see `listAlerts`). */
export const listSavedSearches = savedSearches.listPaged;
export const getSavedSearch = savedSearches.get;
export const createSavedSearch = savedSearches.create;
/** Replaces a saved search: optional fields left out reset to their defaults. */
export const updateSavedSearch = savedSearches.update;
/** Deletes a saved search AND the alerts attached to it (the server deletes them first). */
export const deleteSavedSearch = savedSearches.delete;
