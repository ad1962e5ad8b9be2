/**
 * Traces in the editor: Observability: Open Trace… reads a trace's spans and logs and shows them in the trace panel
 * (a waterfall, the selected span's details, the trace's logs linked to their spans). The SQL runs through the query
 * feature's client (same host, key and rate budget), given by the wiring as `runSql`.
 */
import * as vscode from 'vscode';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import { createOpenTrace } from './openTrace';
import { TracePanels } from './panel';
import { createRestoreTrace, type RestoredTrace } from './restore';

export type { OpenTraceArgs } from './openTrace';

/** What the entry reaches: the trace panels VS Code restores after a window reload. */
export interface TracesApi {
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<RestoredTrace>;
}

export interface TracesDeps {
  readonly connections: ConnectionManager;
  readonly log: Logger;
  /** SQL on a service (the query feature's client: the query endpoint, or a self-hosted ClickHouse access). */
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
}

export function registerTraces(context: vscode.ExtensionContext, deps: TracesDeps): TracesApi {
  const panels = new TracePanels(context.extensionUri);
  const openTrace = createOpenTrace(deps, panels, deps.log);
  context.subscriptions.push(
    panels,
    vscode.commands.registerCommand('observability.openTrace', (raw?: unknown) => openTrace(raw)),
  );
  return { restore: createRestoreTrace(deps, panels) };
}
