import type * as vscode from 'vscode';
import type { EditorCommandDeps } from './common';
import { registerCreateAlert } from './createAlert';
import { registerEditResource } from './editResource';
import { registerCreateDashboard } from './createDashboard';
import { registerUpsertQueryEndpoint } from './upsertQueryEndpoint';
import { registerDeleteQueryEndpoint } from './deleteQueryEndpoint';
import { registerApplyResource } from './applyResource';
import { registerCompareWithService } from './compareWithService';
import { registerCreateResource } from './createResource';

export * from './common';
export { openNewResource, type CreatableKind, type CreateResourceArgs } from './createResource';

/** Registers every command of this feature (one `registerX` per command file). */
export function registerCommands(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  registerCreateAlert(context, deps);
  registerEditResource(context, deps);
  registerCreateDashboard(context, deps);
  registerUpsertQueryEndpoint(context, deps);
  registerDeleteQueryEndpoint(context, deps);
  registerApplyResource(context, deps);
  registerCompareWithService(context, deps);
  registerCreateResource(context, deps);
}
