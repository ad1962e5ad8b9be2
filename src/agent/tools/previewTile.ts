/** `observability_previewTile`: a dashboard tile's data for a time range, as a table (the tile preview's query). */
import { sanitizeServerText } from '../../api';
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import type { ReadTool } from '../tool';
import { rangeOf, rangeText } from './range';
import { tileText } from './tileText';

const same = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

export const previewTile: ReadTool = {
  name: 'observability_previewTile',
  kind: 'read',
  running: () => 'Running the tile query',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    const dashboardName = typeof input.dashboard === 'string' ? input.dashboard : '';
    const tileName = typeof input.tile === 'string' ? input.tile : '';
    if (!dashboardName || !tileName) return { title: 'Name the dashboard and the tile (ID or name).' };
    const range = rangeOf(input, '1h');
    try {
      const dashboards = (await deps.connections.clientFor(scope.connectionId).listDashboards(scope.serviceId)).data;
      const dashboard =
        dashboards.find((d) => d.id === dashboardName) ?? dashboards.find((d) => same(d.name, dashboardName));
      if (!dashboard) {
        return {
          title: `${scopeName(scope)} has no dashboard "${sanitizeServerText(dashboardName, 80)}" (see observability_listDashboards).`,
        };
      }
      const tile =
        dashboard.tiles?.find((t) => t.id === tileName) ?? dashboard.tiles?.find((t) => same(t.name, tileName));
      if (!tile) {
        return {
          title: `The dashboard has no tile "${sanitizeServerText(tileName, 80)}" (see observability_listDashboards).`,
        };
      }
      const data = await deps.tileData(scope, { dashboardId: dashboard.id, tileId: tile.id }, range);
      const text = tileText(data, { maxRows: typeof input.maxRows === 'number' ? input.maxRows : undefined });
      return {
        title: `Tile of a dashboard of ${scopeName(scope)}, ${rangeText(range)} (UTC).`,
        notes: text.ok ? [] : ['The tile gave no data; the reason is below.'],
        data: [
          `dashboard: ${sanitizeServerText(dashboard.name)}`,
          `tile: ${sanitizeServerText(tile.name)} (${sanitizeServerText(tile.config?.displayType)})`,
          ...(data.subtitle ? [`context: ${sanitizeServerText(data.subtitle, 300)}`] : []),
          text.data,
        ].join('\n'),
      };
    } catch (error) {
      return errorResult(`Preview the tile of ${scopeName(scope)}`, error);
    }
  },
};
