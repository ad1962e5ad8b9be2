/**
 * `observability_getAlert`: one alert in full (state, condition, what it watches, channels, schedule, execution
 * errors) and its backtest over the last hours: "would have fired N× in 24 h, last at …".
 */
import { sanitizeServerText } from '../../api';
import { errorMessage } from '../../errors';
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import { cellText, tableText } from '../text';
import type { ReadTool } from '../tool';
import { alertState, condition, watched } from './alertRows';

const HOUR = 3_600_000;

export const getAlert: ReadTool = {
  name: 'observability_getAlert',
  kind: 'read',
  running: () => 'Reading the alert and backtesting it',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    const wanted = typeof input.alert === 'string' ? input.alert.trim() : '';
    if (!wanted) return { title: 'Name the alert (its ID or name, as observability_listAlerts shows it).' };
    let alerts;
    try {
      alerts = (await deps.connections.clientFor(scope.connectionId).listAlerts(scope.serviceId)).data;
    } catch (error) {
      return errorResult(`Read the alerts of ${scopeName(scope)}`, error);
    }
    const lower = wanted.toLowerCase();
    const match =
      alerts.find((a) => a.id === wanted) ?? alerts.filter((a) => (a.name ?? '').trim().toLowerCase() === lower);
    const list = Array.isArray(match) ? match : [match];
    if (list.length !== 1 || !list[0]) {
      return {
        title:
          list.length === 0
            ? `${scopeName(scope)} has no alert with the ID or name "${sanitizeServerText(wanted, 80)}".`
            : `${list.length} alerts of ${scopeName(scope)} are named "${sanitizeServerText(wanted, 80)}"; name one by its ID.`,
      };
    }
    let alert = list[0];
    try {
      alert = (await deps.live.alert(scope.connectionId, scope.serviceId, alert.id)) ?? alert;
    } catch {
      // The list's copy is enough to describe it.
    }
    const [dashboards, savedSearches, webhooks] = await Promise.all([
      deps.live.dashboards(scope.connectionId, scope.serviceId).catch(() => undefined),
      deps.live.listSavedSearches(scope.connectionId, scope.serviceId).catch(() => undefined),
      deps.live.webhooks(scope.connectionId, scope.serviceId).catch(() => undefined),
    ]);
    const channels = (alert.channels ?? (alert.channel ? [alert.channel] : [])).map((c) => {
      if (c.webhookId) {
        // The webhook's name only: its URL can hold a secret.
        const hook = webhooks?.find((w) => w.id === c.webhookId);
        return `webhook "${hook?.name ?? c.webhookId}"${c.severity ? ` (${c.severity})` : ''}`;
      }
      if (c.emailRecipients) return `email to ${c.emailRecipients.length} recipient(s)`;
      return c.type ?? 'channel';
    });
    const fields: [string, unknown][] = [
      ['name', alert.name],
      ['alert ID', alert.id],
      ['state', alertState(alert)],
      ['condition', condition(alert)],
      ['watches', watched(alert, { dashboards, savedSearches })],
      ['notifies', channels.join('; ')],
      ['message', alert.message],
      ['note', alert.note],
      ['silenced by', alert.silenced?.by],
      [
        'schedule',
        [
          alert.scheduleStartAt && `from ${alert.scheduleStartAt}`,
          alert.scheduleOffsetMinutes && `offset ${alert.scheduleOffsetMinutes} min`,
        ]
          .filter(Boolean)
          .join(', '),
      ],
      ['updated', alert.updatedAt],
    ];
    const hours = Math.min(Math.max(typeof input.backtestHours === 'number' ? input.backtestHours : 24, 1), 168);
    const to = Date.now();
    let backtest: string;
    try {
      const r = await deps.backtest(scope, alert.id, { from: to - hours * HOUR, to });
      backtest =
        r.fired === 0
          ? `would not have fired in the last ${hours} h (${r.evaluations} evaluations)`
          : `would have fired ${r.fired}× in the last ${hours} h (${r.evaluations} evaluations), last at ${new Date(r.lastFiredAt ?? to).toISOString()}; last state ${r.lastState}`;
    } catch (error) {
      backtest = `could not be computed: ${errorMessage(error)}`;
    }
    const errors = (alert.executionErrors ?? []).slice(-5).map((e) => [e.timestamp ?? '', e.type, e.message]);
    return {
      title: `Alert of ${scopeName(scope)}.`,
      data: [
        `backtest: ${cellText(backtest, 400)}`,
        ...fields
          .filter(([, v]) => v !== undefined && v !== null && v !== '')
          .map(([k, v]) => `${k}: ${cellText(v, 600)}`),
        ...(errors.length > 0
          ? ['execution errors (latest last):', tableText({ columns: ['time', 'type', 'message'], rows: errors })]
          : []),
      ].join('\n'),
    };
  },
};
