import type * as vscode from 'vscode';
import type { QueryContext } from '../context';
import { registerChooseQueryTarget } from './chooseQueryTarget';
import { registerCopyQueryResult } from './copyQueryResult';
import { registerEnableQueryKey } from './enableQueryKey';
import { registerNewQuery } from './newQuery';
import { registerOpenQueryResultAsJson } from './openQueryResultAsJson';
import { registerRunQuery } from './runQuery';
import { registerSetQueryHost } from './setQueryHost';

/** Every command of the query feature, one `registerX` per file. */
export function registerQueryCommands(ctx: QueryContext): vscode.Disposable[] {
  return [
    registerRunQuery(ctx),
    registerNewQuery(ctx),
    registerChooseQueryTarget(ctx),
    registerSetQueryHost(ctx),
    registerEnableQueryKey(ctx),
    registerCopyQueryResult(ctx),
    registerOpenQueryResultAsJson(ctx),
  ];
}
