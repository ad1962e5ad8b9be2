import * as vscode from 'vscode';
import { commandArgument } from '../../commandArgs';
import { targetOf, type QueryContext } from '../context';

/** Arguments of `observability.chooseQueryTarget`: the document (default: the active one) and, to skip the pick, a service. */
export interface ChooseQueryTargetArgs {
  uri?: string;
  connectionId?: string;
  serviceId?: string;
}

/** `observability.chooseQueryTarget` (status bar item): the service a SQL document runs on. */
export function registerChooseQueryTarget(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.chooseQueryTarget', async (raw: unknown) => {
    const a = commandArgument<ChooseQueryTargetArgs>(raw);
    const args: ChooseQueryTargetArgs = a.kind === 'args' ? a.args : a.kind === 'uri' ? { uri: a.uri.toString() } : {};
    const uri = args.uri ? vscode.Uri.parse(args.uri) : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return undefined;
    const target = targetOf(args) ?? (await ctx.targets.pick(ctx.targets.get(uri)));
    if (target) await ctx.targets.bind(uri, target);
    return target;
  });
}
