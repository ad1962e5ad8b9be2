/** Save as Saved Search…: opens a new saved-search document (the resource editors' Create Saved Search) filled in. */
import * as vscode from 'vscode';
import type { SearchRequest } from './request';
import { savedSearchFields, savedSearchName } from './saveAs';

/** Opens the document (nothing is sent before Apply) and answers its address. */
export function openSavedSearchDocument(
  scope: { connectionId: string; serviceId: string },
  req: SearchRequest,
): Promise<string | undefined> {
  return Promise.resolve(
    vscode.commands.executeCommand<string | undefined>('observability.createSavedSearch', {
      connectionId: scope.connectionId,
      serviceId: scope.serviceId,
      name: savedSearchName(req),
      fields: savedSearchFields(req),
    }),
  );
}
