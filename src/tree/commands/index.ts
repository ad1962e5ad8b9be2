import type * as vscode from 'vscode';
import type { ResourceCommandDeps } from './common';
import { registerRefresh } from './refresh';
import { registerRefreshNode } from './refreshNode';
import { registerRetry } from './retry';
import { registerFilter } from './filter';
import { registerClearFilter } from './clearFilter';
import { registerCopyId } from './copyId';
import { registerOpenJson } from './openJson';
import { registerDeleteDashboard } from './deleteDashboard';
import { registerDeleteAlert } from './deleteAlert';
import { registerDeleteWebhook } from './deleteWebhook';
import { registerDeleteSavedSearch } from './deleteSavedSearch';
import { registerDeleteSource } from './deleteSource';
import { registerDeleteRole } from './deleteRole';
import { registerOpenInWebApp } from './openInWebApp';

export * from './common';

/** Registers every command of this feature (one `registerX` per command file). */
export function registerCommands(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  registerRefresh(context, deps);
  registerRefreshNode(context, deps);
  registerRetry(context, deps);
  registerFilter(context, deps);
  registerClearFilter(context, deps);
  registerCopyId(context, deps);
  registerOpenJson(context, deps);
  registerDeleteDashboard(context, deps);
  registerDeleteAlert(context, deps);
  registerDeleteWebhook(context, deps);
  registerDeleteSavedSearch(context, deps);
  registerDeleteSource(context, deps);
  registerDeleteRole(context, deps);
  registerOpenInWebApp(context, deps);
}
