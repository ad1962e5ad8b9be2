/** "Show Hottest Functions…": the workspace's functions by calls, p95 or error rate; the one chosen opens at its line. */
import * as vscode from 'vscode';
import type { CodeFigures } from '../codeModel';
import type { Aggregates } from './aggregates';
import { lensTitle, locationOf, p95Approximate } from './figures';
import type { Picks } from './picks';
import { definitionsOf } from './symbols';
import { matchDefinition } from '../codeModel';

export type HottestOrder = 'calls' | 'p95' | 'errorRate';

export interface HottestArgs {
  order?: HottestOrder;
  /** Open the item at this place of the list without asking (0 = the first). */
  open?: number;
  /** Only answer the list: ask nothing, open nothing. */
  listOnly?: boolean;
}

export interface HottestItem {
  uri: vscode.Uri;
  row: CodeFigures;
  label: string;
}

const rate = (r: CodeFigures) => (r.calls > 0 ? r.errors / r.calls : 0);
const ORDERS: Record<HottestOrder, (a: CodeFigures, b: CodeFigures) => number> = {
  calls: (a, b) => b.calls - a.calls,
  p95: (a, b) => (b.p95Ms ?? -1) - (a.p95Ms ?? -1),
  errorRate: (a, b) => rate(b) - rate(a) || b.errors - a.errors,
};

export async function showHottest(picks: Picks, aggregates: Aggregates, arg: HottestArgs = {}): Promise<HottestItem[]> {
  const order =
    arg.order ??
    (
      await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('Most calls'), value: 'calls' as const },
          { label: vscode.l10n.t('Slowest (p95)'), value: 'p95' as const },
          { label: vscode.l10n.t('Most failing (error rate)'), value: 'errorRate' as const },
        ],
        { placeHolder: vscode.l10n.t('Order the functions by') },
      )
    )?.value;
  if (!order) return [];
  const items: HottestItem[] = [];
  for (const { folder, pick } of picks.entries()) {
    const entry = aggregates.ensure(pick);
    await entry.done;
    if (entry.state !== 'done') continue;
    for (const [rel, rows] of await aggregates.filesOf(entry, folder)) {
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      for (const row of rows) {
        const name = row.namespace ? `${row.namespace}.${row.function}` : row.function;
        const figures = lensTitle(row, entry.rangeName, p95Approximate({ groups: [row] }, entry.weighted === true));
        items.push({ uri, row, label: `${name || rel} — ${figures}` });
      }
    }
  }
  items.sort((a, b) => ORDERS[order](a.row, b.row));
  if (arg.listOnly) return items;
  const chosen =
    arg.open !== undefined
      ? items[arg.open]
      : (
          await vscode.window.showQuickPick(
            items.map((i) => ({ label: i.label, description: vscode.workspace.asRelativePath(i.uri), item: i })),
            { placeHolder: vscode.l10n.t('Open a function'), matchOnDescription: true },
          )
        )?.item;
  if (chosen) await openAt(chosen);
  return items;
}

/** Opens the workspace file at the function's definition (else the line the spans name). */
async function openAt(item: HottestItem): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(item.uri);
  const loc = locationOf(item.row);
  const m = loc ? matchDefinition(loc, (await definitionsOf(doc)).definitions) : undefined;
  const line = Math.max(0, (m?.kind === 'matched' ? m.definition.nameLine : item.row.line || 1) - 1);
  const at = new vscode.Position(Math.min(line, doc.lineCount - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at) });
}
