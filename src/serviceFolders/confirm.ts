import * as vscode from 'vscode';
import { LAYOUT } from './layout';
import type { FolderPlan } from './plan';
import { planSummary } from './render';
import { shortValue, type Revert } from './reverts';

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

/**
 * The question an apply asks when it would put back fields the service changed since the last pull: each such field
 * with the service's value and the file's, then the usual counts and deletions.
 */
export function revertConfirmation(
  plan: FolderPlan,
  reverts: readonly Revert[],
): { readonly message: string; readonly detail: string } {
  const changing = plan.steps.filter((s) => s.action !== 'unchanged');
  const mine = reverts.filter((r) => !r.bothChanged);
  const both = reverts.filter((r) => r.bothChanged);
  const line = (r: Revert) =>
    `${r.path}: ${vscode.l10n.t('{0}: {1} on the service → {2} from the file', r.field, shortValue(r.service), shortValue(r.file))}`;
  const detail = [
    vscode.l10n.t('Changed on the service since the last pull; applying puts the file’s old value back:'),
    ...mine.map(line),
    ...(both.length > 0 ? [vscode.l10n.t('Changed on both sides (the file’s value is sent):'), ...both.map(line)] : []),
    '',
    applyConfirmation(plan).detail,
  ].join('\n');
  return {
    message: vscode.l10n.t(
      'Apply {0} change(s) to {1}? It would revert {2} field(s) changed on the service since the last pull.',
      changing.length,
      plan.serviceLabel,
      mine.length,
    ),
    detail,
  };
}
