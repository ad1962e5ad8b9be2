/**
 * `observability_applyAlertPlan` (writes): applies the workspace alert plan's creates and updates. The confirmation
 * lists every file, action, alert and service; when the plan has changed by the time the user confirms, nothing is
 * sent and the tool says to plan again. Refused in an untrusted workspace.
 */
import { escapeMarkdown, sanitizeServerText } from '../../api';
import { errorResult } from '../failure';
import { cellText, tableText } from '../text';
import type { AlertPlanView, WriteTool } from '../tool';
import { countsText } from './planResourceFiles';

function changes(
  plan: AlertPlanView,
): { service: string; label: string; action: string; name: string; alertId: string }[] {
  return plan.services.flatMap((s) =>
    s.entries
      .filter((e) => e.action === 'create' || e.action === 'update')
      .map((e) => ({
        service: s.serviceLabel,
        label: e.label,
        action: e.action,
        name: e.name ?? '',
        alertId: e.alertId ?? '',
      })),
  );
}

const md = (text: string) => escapeMarkdown(sanitizeServerText(text, 200));

export const applyAlertPlan: WriteTool = {
  name: 'observability_applyAlertPlan',
  kind: 'write',
  running: () => "Applying the workspace's alert files",
  async plan(_input, { deps, token }) {
    const plan = await deps.planAlertFiles(token);
    const work = changes(plan);
    if (work.length === 0) {
      return { title: `Nothing to apply, nothing was sent: ${countsText(plan) || 'no alert files'}.` };
    }
    const key = JSON.stringify(work);
    const lines = work.map(
      (w) =>
        `- **${w.action}** alert "${md(w.name)}"${w.alertId ? ` (${md(w.alertId)})` : ''} from \`${sanitizeServerText(w.label).replace(/`/g, "'")}\` on ${md(w.service)}`,
    );
    return {
      title: `Apply ${work.length} alert change(s)?`,
      message: [
        `These requests will be sent (each file's body as it is in the workspace; live alerts without a file are left as they are):`,
        '',
        ...lines,
      ].join('\n'),
      async send(ctx) {
        const now = changes(await ctx.deps.planAlertFiles(ctx.token));
        if (JSON.stringify(now) !== key) {
          return {
            title: 'The alert files changed since the confirmation; nothing was sent. Plan again and ask once more.',
          };
        }
        try {
          const r = await ctx.deps.applyAlertPlan();
          return {
            title: `Alert plan ${r.outcome}: ${r.done.length} done, ${r.failed.length} failed, ${r.notAttempted.length} not attempted.`,
            data: tableText({
              columns: ['file', 'result', 'alert ID or error'],
              rows: [
                ...r.done.map((d) => [d.label, `${d.action}d`, d.id]),
                ...r.failed.map((f) => [f.label, 'failed', cellText(f.error, 300)]),
                ...r.notAttempted.map((l) => [l, 'not attempted', '']),
              ],
            }),
          };
        } catch (error) {
          return errorResult('Apply the alert plan', error);
        }
      },
    };
  },
};
