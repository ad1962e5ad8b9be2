/** `observability_listAlerts`: a service's alerts with their state (firing first) and conditions. */
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import { tableText } from '../text';
import type { ReadTool } from '../tool';
import { alertState, condition, watched } from './alertRows';

const ORDER: Record<string, number> = { ALERT: 0, PENDING: 1, INSUFFICIENT_DATA: 2, OK: 3, DISABLED: 4 };

export const listAlerts: ReadTool = {
  name: 'observability_listAlerts',
  kind: 'read',
  running: () => 'Reading the alerts',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    try {
      const client = deps.connections.clientFor(scope.connectionId);
      const alerts = (await client.listAlerts(scope.serviceId)).data;
      const [dashboards, savedSearches] = await Promise.all([
        deps.live.dashboards(scope.connectionId, scope.serviceId).catch(() => undefined),
        deps.live.listSavedSearches(scope.connectionId, scope.serviceId).catch(() => undefined),
      ]);
      const only = typeof input.state === 'string' ? input.state.toLowerCase() : undefined;
      const now = Date.now();
      const rows = [...alerts]
        .sort((a, b) => (ORDER[a.state ?? ''] ?? 5) - (ORDER[b.state ?? ''] ?? 5))
        .map((a) => ({ a, state: alertState(a, now) }))
        .filter(({ state }) => !only || only === 'all' || state.toLowerCase().includes(only))
        .map(({ a, state }) => [
          a.name ?? '',
          state,
          condition(a),
          watched(a, { dashboards, savedSearches }),
          a.executionErrors?.at(-1)?.message ?? '',
          a.id,
        ]);
      const firing = alerts.filter((a) => a.state === 'ALERT').length;
      return {
        title: `Alerts of ${scopeName(scope)}: ${alerts.length} in all, ${firing} firing.`,
        notes: only && only !== 'all' ? [`Only alerts whose state mentions "${only}".`] : [],
        data: tableText(
          { columns: ['name', 'state', 'condition', 'watches', 'last execution error', 'alert ID'], rows },
          { maxRows: typeof input.maxRows === 'number' ? input.maxRows : undefined },
        ),
      };
    } catch (error) {
      return errorResult(`List alerts of ${scopeName(scope)}`, error);
    }
  },
};
