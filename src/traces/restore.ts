/**
 * A trace panel VS Code restored after a window reload (its serializer, registered by the entry, hands it over): the
 * trace its webview kept in its state (connection, service, source, trace ID, range) is read again and drawn. What
 * cannot be opened any more (the connection removed, no ClickHouse access) is said inside the panel.
 */
import * as vscode from 'vscode';
import { isSelfHosted } from '../connections/types';
import type { TraceModel } from '../render';
import type { TracesDeps } from './index';
import { readAndShow } from './openTrace';
import type { TracePanels } from './panel';
import { parseTraceRestore, type TraceRange } from './window';

export type RestoredTrace = (TraceModel & { range?: TraceRange | undefined }) | undefined;

let restored = 0;

export function createRestoreTrace(deps: TracesDeps, panels: TracePanels) {
  return async (panel: vscode.WebviewPanel, raw: unknown): Promise<RestoredTrace> => {
    const state = parseTraceRestore(raw);
    const connection = state ? deps.connections.get(state.connectionId) : undefined;
    const key = state ? `${state.connectionId}/${state.serviceId}/${state.traceId}` : `restored/${++restored}`;
    if (!panels.adopt(key, panel, state?.traceId ?? '')) {
      // The trace is open already (opened again before the reload finished).
      panel.dispose();
      return undefined;
    }
    // The words Open Trace uses for the same cases.
    let why: string | undefined;
    if (!state || !connection) why = vscode.l10n.t('Open Trace: the connection does not exist.');
    else if (isSelfHosted(connection) && !connection.clickHouse) {
      why = vscode.l10n.t(
        'Opening a trace of {0} needs ClickHouse access (the self-hosted API has no SQL): add it with Edit Connection.',
        connection.label,
      );
    }
    if (why || !state || !connection) {
      panels.failed(key, why ?? '');
      return undefined;
    }
    return readAndShow(deps.connections, deps, panels, deps.log, { ...state, connection });
  };
}
