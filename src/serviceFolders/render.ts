/**
 * The plan and the apply report as Markdown, for a read-only document to read, search and copy into a review. All
 * server text (names, messages) is sanitised and escaped: nothing it holds becomes a link or markup. Pure.
 */
import { markdownCode, markdownText } from '../api/sanitize';
import type { ApplyReport } from './apply';
import { describeStep } from './apply';
import { LAYOUT } from './layout';
import type { FolderPlan, PlanStep } from './plan';

const MAX_CHANGES = 20;

function valueText(value: unknown): string {
  if (value === undefined) return '(none)';
  return markdownCode(JSON.stringify(value), 160);
}

function stepLine(step: PlanStep): string[] {
  const what = `${LAYOUT[step.kind].label} ${markdownText(step.name || '(unnamed)')}`;
  const file = step.path ? ` — ${markdownCode(step.path)}` : '';
  const lines = [`- **${step.action}** ${what}${file}`];
  for (const note of step.notes) lines.push(`  - ${markdownText(note)}`);
  if (step.action === 'update') {
    for (const change of step.changes.slice(0, MAX_CHANGES)) {
      lines.push(`  - ${markdownCode(change.path)}: ${valueText(change.before)} → ${valueText(change.after)}`);
    }
    if (step.changes.length > MAX_CHANGES) lines.push(`  - … and ${step.changes.length - MAX_CHANGES} more`);
  }
  if (step.action === 'create') lines.push(`  - fields: ${step.changes.map((c) => markdownCode(c.path)).join(', ')}`);
  if (step.cascade.length > 0) lines.push(`  - also deletes: ${step.cascade.map((c) => markdownText(c)).join(', ')}`);
  return lines;
}

/** Counts of a plan's actions, e.g. `2 to create, 1 to update, 40 unchanged`. */
export function planSummary(plan: FolderPlan): string {
  const count = (action: PlanStep['action']) => plan.steps.filter((s) => s.action === action).length;
  const parts = [
    `${count('create')} to create`,
    `${count('update')} to update`,
    ...(count('delete') > 0 ? [`${count('delete')} to delete`] : []),
    `${count('unchanged')} unchanged`,
  ];
  return parts.join(', ');
}

export function renderPlan(plan: FolderPlan, folderLabel: string): string {
  const lines = [
    `# Plan of ${markdownText(folderLabel)} on ${markdownText(plan.serviceLabel)}`,
    '',
    planSummary(plan) +
      (plan.problems.length > 0 ? ` — **${plan.problems.length} problem(s): nothing can be applied**` : ''),
    '',
  ];
  if (plan.problems.length > 0) {
    lines.push('## Problems (nothing is sent while there is one)', '');
    for (const p of plan.problems) {
      lines.push(`- ${p.path ? `${markdownCode(p.path)}: ` : ''}${markdownText(p.message, 600)}`);
    }
    lines.push('');
  }
  const changing = plan.steps.filter((s) => s.action !== 'unchanged');
  if (changing.length > 0) {
    lines.push('## Changes, in the order they are applied', '');
    for (const step of changing) lines.push(...stepLine(step));
    lines.push('');
  }
  const unchanged = plan.steps.filter((s) => s.action === 'unchanged');
  if (unchanged.length > 0) {
    lines.push('## Unchanged', '');
    for (const step of unchanged) lines.push(...stepLine(step));
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

export function renderReport(report: ApplyReport): string[] {
  return report.outcomes.map(
    (o) =>
      `${o.outcome}: ${describeStep(o.step)}${o.reason ? ` — ${o.reason}` : ''}${o.notKept ? ` (the service did not keep: ${o.notKept.join(', ')})` : ''}`,
  );
}
