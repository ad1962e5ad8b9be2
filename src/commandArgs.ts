import * as vscode from 'vscode';
import type { Alert, Dashboard, Source, TileResponse } from './schema';

/**
 * How every command reads its argument. VS Code passes a tree node (context menus, inline actions), a file URI
 * (explorer and editor menus) or nothing (Command Palette, keybindings without `args`); keybindings, tasks and
 * automation pass an argument object (documented in the README). `commandArgument` tells them apart, by a brand the
 * explorer's nodes carry rather than by guessing from fields.
 */

/** The brand of the explorer's nodes (set by every node class of the tree). */
export const EXPLORER_NODE: unique symbol = Symbol.for('observability.explorerNode') as never;

interface Scoped {
  readonly connectionId: string;
  readonly serviceId: string;
}

/** What commands may read from an explorer node: the tree's node union satisfies it. */
export type ExplorerNode =
  | { readonly type: 'connection'; readonly connection: { readonly id: string } }
  | (Scoped & { readonly type: 'service' })
  | (Scoped & { readonly type: 'folder'; readonly kind: string })
  | (Scoped & { readonly type: 'dashboard'; readonly dashboard: Dashboard })
  | (Scoped & {
      readonly type: 'tile';
      readonly tile: TileResponse;
      readonly parent: { readonly dashboard: Dashboard };
    })
  | (Scoped & { readonly type: 'alert'; readonly alert: Alert })
  | (Scoped & { readonly type: 'source'; readonly source: Source })
  | (Scoped & {
      readonly type: 'item';
      readonly kind: 'webhook' | 'savedSearch' | 'role';
      readonly item: { readonly id: string; readonly name: string };
    })
  | (Scoped & { readonly type: 'member' })
  | { readonly type: 'info' | 'error' };

export type CommandArgument<A> =
  | { readonly kind: 'node'; readonly node: ExplorerNode }
  | { readonly kind: 'uri'; readonly uri: vscode.Uri }
  | { readonly kind: 'args'; readonly args: Partial<A> }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'none' };

export function isExplorerNode(value: unknown): value is ExplorerNode {
  return (
    typeof value === 'object' && value !== null && (value as { [EXPLORER_NODE]?: unknown })[EXPLORER_NODE] === true
  );
}

/** The one place that tells a command's argument apart: a tree node, a URI, an argument object, a string, or none. */
export function commandArgument<A = Record<string, unknown>>(arg: unknown): CommandArgument<A> {
  if (isExplorerNode(arg)) return { kind: 'node', node: arg };
  if (arg instanceof vscode.Uri) return { kind: 'uri', uri: arg };
  if (typeof arg === 'string') return { kind: 'text', text: arg };
  if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) return { kind: 'args', args: arg as Partial<A> };
  return { kind: 'none' };
}

/** The argument object of a command, or an empty one when it got something else. */
export function argsOf<A>(arg: unknown): Partial<A> {
  const a = commandArgument<A>(arg);
  return a.kind === 'args' ? a.args : {};
}

/** The explorer node a command got, if any. */
export function nodeOf(arg: unknown): ExplorerNode | undefined {
  return isExplorerNode(arg) ? arg : undefined;
}

/** The one name for "run without asking": every argument object takes it. */
export interface NoPromptArgs {
  /** Skip the confirmation (and the notification or document a command would show). Only from an argument object. */
  readonly noPrompt?: boolean;
}

/**
 * Old names of `noPrompt`, still accepted (deprecated): `skipConfirmation` (delete dashboard, alert, connection),
 * `confirm` (apply, delete query endpoint, alert files), `quiet` (validate alert file), `show: false` (plan).
 */
export type LegacyNoPrompt = 'skipConfirmation' | 'confirm' | 'quiet' | 'show';

/** Whether an argument object asks to run without prompts, by `noPrompt` or the command's old name for it. */
export function noPrompt(args: object, legacy: LegacyNoPrompt): boolean {
  const o = args as Record<string, unknown>;
  if (o.noPrompt === true) return true;
  return legacy === 'show' ? o.show === false : o[legacy] === true;
}

/** The connection and service a node belongs to (a connection node names only its connection). */
export function scopeOfNode(node: ExplorerNode): { connectionId?: string; serviceId?: string } {
  if (node.type === 'connection') return { connectionId: node.connection.id };
  if ('connectionId' in node) return { connectionId: node.connectionId, serviceId: node.serviceId };
  return {};
}
