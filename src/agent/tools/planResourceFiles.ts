/**
 * `observability_planAlertFiles`: what applying the workspace's alert files (`*.alert.json`) would do on each service
 * — create, update, unchanged, invalid, … — without sending any change (it reads the live alerts). Refused in an
 * untrusted workspace.
 */
import { errorResult } from '../failure';
import { tableText } from '../text';
import type { AlertPlanView, ReadTool } from '../tool';

export function planRows(plan: AlertPlanView): unknown[][] {
  return [
    ...plan.services.flatMap((s) =>
      s.entries.map((e) => [
        s.serviceLabel,
        e.label,
        e.action,
        e.name ?? '',
        e.alertId ?? '',
        e.detail ?? s.error ?? '',
      ]),
    ),
    ...plan.untargeted.map((e) => ['(no target)', e.label, e.action, '', '', e.detail ?? '']),
  ];
}

export function countsText(plan: AlertPlanView): string {
  return Object.entries(plan.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

export const planAlertFiles: ReadTool = {
  name: 'observability_planAlertFiles',
  kind: 'read',
  workspace: true,
  running: () => "Planning the workspace's alert files",
  async run(_input, { deps, token }) {
    try {
      const plan = await deps.planAlertFiles(token);
      const drift = plan.services.flatMap((s) => s.drift.map((d) => [s.serviceLabel, d.name ?? '', d.id]));
      return {
        title: `Alert plan of the workspace: ${countsText(plan) || 'no alert files'}. Nothing was changed.`,
        notes: ['observability_applyAlertPlan applies the creates and updates (after the user confirms).'],
        data: [
          tableText(
            { columns: ['service', 'file', 'action', 'alert', 'alert ID', 'detail'], rows: planRows(plan) },
            { maxRows: 200 },
          ),
          ...(drift.length > 0
            ? [
                'live alerts no file manages (left as they are):',
                tableText({ columns: ['service', 'alert', 'alert ID'], rows: drift }),
              ]
            : []),
        ].join('\n'),
      };
    } catch (error) {
      return errorResult('Plan the alert files', error);
    }
  },
};
