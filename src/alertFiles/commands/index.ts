import type * as vscode from 'vscode';
import type { AlertFileCommandDeps } from './common';
import { registerApplyAlertFile } from './applyAlertFile';
import { registerCompareAlertFile } from './compareAlertFile';
import { registerValidateAlertFile } from './validateAlertFile';
import { registerPlanAlertFiles } from './planAlertFiles';
import { registerApplyAlertPlan } from './applyAlertPlan';
import { registerExportAlertToFile } from './exportAlertToFile';

export * from './common';

/** Registers every command of this feature (one `registerX` per command file). */
export function registerCommands(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  registerApplyAlertFile(context, deps);
  registerCompareAlertFile(context, deps);
  registerValidateAlertFile(context, deps);
  registerPlanAlertFiles(context, deps);
  registerApplyAlertPlan(context, deps);
  registerExportAlertToFile(context, deps);
}
