import type * as vscode from 'vscode';
import type { ResourceCache } from '../resources/cache';
import type { ConnectionSource } from '../resources/model';
import { registerShowFiringAlerts } from './commands/showFiringAlerts';
import { registerFiringNotifications } from './firingNotifications';
import { FiringStatus, type FiringAlert } from './firingStatus';

export type { FiringAlert, FiringChange, FiringStatus } from './firingStatus';

export interface StatusDeps {
  readonly connections: ConnectionSource;
  readonly cache: ResourceCache;
  /** Shows a firing alert (the wiring passes the explorer's reveal). */
  readonly reveal: (alert: FiringAlert) => Promise<boolean>;
}

/** The firing-alerts status bar item, its notifications and its command. */
export function registerStatus(context: vscode.ExtensionContext, deps: StatusDeps): FiringStatus {
  const status = new FiringStatus(deps.connections, deps.cache);
  context.subscriptions.push(status, registerFiringNotifications(status, deps.reveal));
  registerShowFiringAlerts(context, status, deps.reveal);
  return status;
}
