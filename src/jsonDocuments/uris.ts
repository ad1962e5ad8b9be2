import * as vscode from 'vscode';
import { RESOURCE_SCHEME, parseResourcePath, resourcePath, type ResourceRef } from './resourcePaths';

/**
 * Addresses of editable resource documents in the extension's own file system (`observability:`). The paths, their
 * readable names and their parsing live in `./resourcePaths` (no `vscode`, so plain Node tests them); this module
 * turns them into and out of `vscode.Uri` and re-exports the rest under the names every caller uses.
 */

export {
  RESOURCE_SCHEME,
  fileLabel,
  isNew,
  parseResourcePath,
  refKey,
  resourcePath,
  sameResource,
  useServiceNames,
  type DocumentKind,
  type ResourceRef,
  type ServiceNames,
} from './resourcePaths';

/** The address of a resource document; `name` only makes the tab readable. */
export function uriFor(ref: ResourceRef, name: string | null | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: resourcePath(ref, name) });
}

/** The resource a document address names, or undefined when it is not one of ours. */
export function parseUri(uri: vscode.Uri): ResourceRef | undefined {
  if (uri.scheme !== RESOURCE_SCHEME) return undefined;
  return parseResourcePath(uri.path);
}
