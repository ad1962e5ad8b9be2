import type * as vscode from 'vscode';
import type { ServiceFolderCommandDeps } from './common';
import { registerPullServiceToFolder } from './pullServiceToFolder';
import { registerPlanServiceFolder } from './planServiceFolder';
import { registerApplyServiceFolder } from './applyServiceFolder';
import { registerPromoteServiceFolder } from './promoteServiceFolder';
import { registerRefreshServiceFolderChanges } from './refreshServiceFolderChanges';

export * from './common';

/** Registers every command of this feature (one `registerX` per command file). */
export function registerCommands(context: vscode.ExtensionContext, deps: ServiceFolderCommandDeps): void {
  registerPullServiceToFolder(context, deps);
  registerPlanServiceFolder(context, deps);
  registerApplyServiceFolder(context, deps);
  registerPromoteServiceFolder(context, deps);
  registerRefreshServiceFolderChanges(context, deps);
}
