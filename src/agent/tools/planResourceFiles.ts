/**
 * `observability_planResourceFiles`: what applying the workspace's resource files would do, without sending any change
 * (it reads the live resources): the alert files (`*.alert.json`: create, update, unchanged, invalid, … per service)
 * and the service folders (create, update, unchanged, delete with `prune`, each with the fields that change, and the
 * problems that stop an apply). Refused in an untrusted workspace.
 */
import { errorMessage } from '../../errors';
import { errorResult } from '../failure';
import { cellText, tableText } from '../text';
import type { AlertPlanView, ReadTool, ServiceFolderPlanView } from '../tool';

/** Fields named per change row, at most. */
const MAX_FIELDS = 8;

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

/** `2 create, 1 update, 40 unchanged` of the service folders' plans. */
function folderCounts(folders: readonly ServiceFolderPlanView[]): string {
  const counts = new Map<string, number>();
  for (const f of folders) for (const s of f.plan?.steps ?? []) counts.set(s.action, (counts.get(s.action) ?? 0) + 1);
  const problems = folders.reduce((n, f) => n + (f.plan?.problems.length ?? 0) + (f.error ? 1 : 0), 0);
  const order = ['create', 'update', 'delete', 'unchanged'];
  const actions = [...counts].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([k, n]) => `${n} ${k}`);
  return [...actions, ...(problems > 0 ? [`${problems} problem(s)`] : [])].join(', ');
}

function folderText(folders: readonly ServiceFolderPlanView[]): string[] {
  if (folders.length === 0) return ['service folders: none in the workspace.'];
  const rows = folders.flatMap((f) =>
    f.plan
      ? f.plan.steps.map((s) => {
          const fields = s.changes.map((c) => c.path);
          const detail =
            s.action === 'update'
              ? `fields: ${fields.slice(0, MAX_FIELDS).join(', ')}${fields.length > MAX_FIELDS ? ` (+${fields.length - MAX_FIELDS})` : ''}`
              : s.action === 'delete' && s.cascade.length > 0
                ? `also deletes: ${s.cascade.join(', ')}`
                : '';
          return [f.folder, f.plan!.serviceLabel, s.kind, s.name, s.action, s.path ?? '', detail];
        })
      : [],
  );
  const problems = folders.flatMap((f) => [
    ...(f.error ? [[f.folder, '', f.error]] : []),
    ...(f.plan?.problems ?? []).map((p) => [f.folder, p.path ?? '', p.message]),
  ]);
  return [
    'service folders (in the order an apply sends them):',
    tableText(
      { columns: ['folder', 'service', 'kind', 'name', 'action', 'file', 'detail'], rows },
      { maxRows: 200, maxChars: 8000 },
    ),
    ...(problems.length > 0
      ? [
          'service folder problems (nothing is applied while a folder has one):',
          tableText({ columns: ['folder', 'file', 'problem'], rows: problems }, { maxChars: 4000 }),
        ]
      : []),
  ];
}

export const planResourceFiles: ReadTool = {
  name: 'observability_planResourceFiles',
  kind: 'read',
  workspace: true,
  running: () => "Planning the workspace's alert files and service folders",
  async run(_input, { deps, token }) {
    let alerts: AlertPlanView;
    try {
      alerts = await deps.planAlertFiles(token);
    } catch (error) {
      return errorResult('Plan the alert files', error);
    }
    let folders: readonly ServiceFolderPlanView[] | undefined;
    let foldersError: string | undefined;
    try {
      folders = await deps.planServiceFolders();
    } catch (error) {
      foldersError = errorMessage(error);
    }
    const drift = alerts.services.flatMap((s) => s.drift.map((d) => [s.serviceLabel, d.name ?? '', d.id]));
    const folderSummary = folders ? folderCounts(folders) || 'no service folders' : 'could not be planned';
    return {
      title: `Plan of the workspace: alert files: ${countsText(alerts) || 'no alert files'}; service folders: ${folderSummary}. Nothing was changed.`,
      notes: [
        'observability_applyAlertPlan applies the alert files\u2019 creates and updates (after the user confirms).',
        'Service folders are applied by the user with the command "Observability: Apply Service Folder".',
      ],
      data: [
        'alert files:',
        tableText(
          { columns: ['service', 'file', 'action', 'alert', 'alert ID', 'detail'], rows: planRows(alerts) },
          { maxRows: 200, maxChars: 6000 },
        ),
        ...(drift.length > 0
          ? [
              'live alerts no alert file manages (left as they are):',
              tableText({ columns: ['service', 'alert', 'alert ID'], rows: drift }, { maxChars: 2000 }),
            ]
          : []),
        ...(folders ? folderText(folders) : [`service folders could not be planned: ${cellText(foldersError, 1000)}`]),
      ].join('\n'),
    };
  },
};
