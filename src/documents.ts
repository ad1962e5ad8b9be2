/**
 * What opens in the editor area, wired together: the resource documents (JSON editors with live checks, diff and
 * apply), the workspace alert files, SQL through the query endpoint and the tile preview and alert backtest panels.
 * Built as its own bundle (dist/documents.js) on top of the features bundle (src/features.ts): the entry loads it the
 * first time one of its commands runs or one of its documents or panels is shown, and it reaches the service layers
 * (API clients, schemas, connections, resources) through the modules the features bundle already holds (esbuild.mjs).
 */
import type * as vscode from 'vscode';
import type { SharedServices } from './features';
import { registerEditors } from './editors';
import { registerAlertFiles } from './alertFiles';
import { registerQuery, type QueryApi } from './query';
import { registerPreview, type PreviewApi } from './preview';
import { registerServiceFolders } from './serviceFolders';

/** What the entry gives the editor features: the stand-in the resource documents' file system takes over. */
export interface DocumentShell {
  attachFileSystem(fs: vscode.FileSystemProvider): void;
}

export interface Documents {
  readonly query: QueryApi;
  /** Tile previews and alert backtests: panels restored after a window reload. */
  readonly preview: PreviewApi;
}

/**
 * Wires the document features on the service layers the features built: each feature folder registers its own
 * providers and commands. Feature folders never import one another.
 */
export function activateDocuments(
  context: vscode.ExtensionContext,
  services: SharedServices,
  shell: DocumentShell,
): Documents {
  const { connections, live, refresh, log } = services;
  registerEditors(context, { connections, live, refresh, log, attachFileSystem: (fs) => shell.attachFileSystem(fs) });
  registerAlertFiles(context, { connections, live, refresh, log });
  registerServiceFolders(context, { connections, refresh, log });
  const query = registerQuery(context, { connections, refresh, log });
  const preview = registerPreview(context, {
    connections,
    live,
    log,
    runSql: (connectionId, opts) => query.run(connectionId, opts),
  });
  return { query, preview };
}
