/** `observability_listDashboards`: a service's dashboards and their tiles (name, ID, chart type, source). */
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import { tableText } from '../text';
import type { ReadTool } from '../tool';

export const listDashboards: ReadTool = {
  name: 'observability_listDashboards',
  kind: 'read',
  running: () => 'Reading the dashboards',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    try {
      const [dashboards, sources] = await Promise.all([
        deps.connections.clientFor(scope.connectionId).listDashboards(scope.serviceId),
        deps.live.sources(scope.connectionId, scope.serviceId).catch(() => undefined),
      ]);
      const only = typeof input.dashboard === 'string' ? input.dashboard.trim().toLowerCase() : '';
      const chosen = dashboards.data.filter(
        (d) => !only || d.id === input.dashboard || (d.name ?? '').trim().toLowerCase() === only,
      );
      const rows = chosen.flatMap((d) => {
        const tiles = d.tiles ?? [];
        if (tiles.length === 0) return [[d.name ?? '', d.id, '(no tiles)', '', '', '']];
        return tiles.map((t) => {
          const source = sources?.find((s) => s.id === t.config?.sourceId);
          return [
            d.name ?? '',
            d.id,
            t.name ?? '',
            t.id,
            t.config?.displayType ?? '',
            source?.name ?? t.config?.sourceId ?? '',
          ];
        });
      });
      return {
        title: `Dashboards of ${scopeName(scope)}: ${dashboards.data.length}${only ? `, ${chosen.length} matching` : ''}.`,
        notes: ['Preview a tile with observability_previewTile (dashboard and tile by ID or name).'],
        data: tableText(
          { columns: ['dashboard', 'dashboard ID', 'tile', 'tile ID', 'chart', 'source'], rows },
          { maxRows: 200 },
        ),
      };
    } catch (error) {
      return errorResult(`List dashboards of ${scopeName(scope)}`, error);
    }
  },
};
