import * as vscode from 'vscode';
import { LAYOUT } from './layout';
import type { FolderPlan } from './plan';
import { planSummary } from './render';

/** The question an apply asks once: the counts, then every deletion with what it takes along (a dashboard's alerts). */
export function applyConfirmation(plan: FolderPlan): { readonly message: string; readonly detail: string } {
  const changing = plan.steps.filter((s) => s.action !== 'unchanged');
  const deletions = changing.filter((s) => s.action === 'delete');
  const detail = [
    planSummary(plan),
    ...deletions.map(
      (s) =>
        `${vscode.l10n.t('Deletes')} ${LAYOUT[s.kind].label} "${s.name}"${s.cascade.length > 0 ? ` ${vscode.l10n.t('and with it')} ${s.cascade.join(', ')}` : ''}`,
    ),
  ].join('\n');
  return { message: vscode.l10n.t('Apply {0} change(s) to {1}?', changing.length, plan.serviceLabel), detail };
}
