/** Dashboard rules of the live server (api-notes §1.5) on top of the OpenAPI schema. */
import { isNewerFilter } from './oss/newer';
import { newObjectId } from './ids';
import { FUTURE_FIELD_PREFIX, futureKeys, type SchemaIssue } from './schemas';
import type { JsonObject, ServiceData, StoredDashboard } from './types';

export const ALERTABLE_DISPLAY_TYPES = new Set(['line', 'stacked_bar', 'number']);

const FILTER_KEYS = new Set([
  'type',
  'name',
  'expression',
  'sourceId',
  'sourceMetricType',
  'where',
  'whereLanguage',
  'appliesToSourceIds',
  'isBroadcastEnabled',
  'isVariableEnabled',
  'variableName',
]);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Business-rule problems of a dashboard body that already fits the schema. */
export function dashboardIssues(
  body: JsonObject,
  mode: 'create' | 'update',
  data: ServiceData,
  existing?: StoredDashboard,
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const add = (path: string, message: string): void => {
    issues.push({ path, message });
  };
  const name = str(body.name) ?? '';
  if (name.trim().length === 0) add('/name', 'must not be empty');
  if (name.length > 1024) add('/name', 'must NOT have more than 1024 characters');

  const tags = Array.isArray(body.tags) ? (body.tags as string[]) : [];
  if (tags.length > 50) add('/tags', 'must NOT have more than 50 items');
  tags.forEach((t, i) => {
    if (t.length > 32) add(`/tags/${i}`, 'must NOT have more than 32 characters');
  });

  if (typeof body.savedQuery === 'string' && body.savedQueryLanguage === null) {
    add('/savedQueryLanguage', 'cannot be null while savedQuery is set');
  }
  const sfv = Array.isArray(body.savedFilterValues) ? body.savedFilterValues : [];
  sfv.forEach((v: unknown, i) => {
    if (isObject(v) && typeof v.condition === 'string' && v.condition.length > 10000) {
      add(`/savedFilterValues/${i}/condition`, 'must NOT have more than 10000 characters');
    }
  });

  const filters = Array.isArray(body.filters) ? body.filters : [];
  filters.forEach((f: unknown, i) => {
    // The newest HyperDX's filter types reach this only from its flavor, checked whole already (oss/newer.ts).
    if (!isObject(f) || isNewerFilter(f)) return;
    for (const key of Object.keys(f)) {
      // Filters are the one strict level of the dashboard body; a newer server's own fields are known to it.
      if (!FILTER_KEYS.has(key) && !(mode === 'update' && key === 'id') && !key.startsWith(FUTURE_FIELD_PREFIX)) {
        add(`/filters/${i}/${key}`, 'unrecognized key');
      }
    }
    const variableName = f.variableName;
    if (
      variableName !== undefined &&
      (typeof variableName !== 'string' || !/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/.test(variableName))
    ) {
      add(`/filters/${i}/variableName`, 'must match pattern "^[a-zA-Z][a-zA-Z0-9_]*$" (at most 64 characters)');
    }
  });

  const containers = Array.isArray(body.containers) ? (body.containers as JsonObject[]) : [];
  const tabsByContainer = new Map<string, Set<string>>();
  if (containers.length > 50) add('/containers', 'must NOT have more than 50 items');
  containers.forEach((c, i) => {
    const id = str(c.id) ?? '';
    const title = str(c.title) ?? '';
    if (id.length < 1 || id.length > 256) add(`/containers/${i}/id`, 'must have 1 to 256 characters');
    if (title.length < 1 || title.length > 256) add(`/containers/${i}/title`, 'must have 1 to 256 characters');
    if (tabsByContainer.has(id)) add(`/containers/${i}/id`, `duplicate container id "${id}"`);
    const tabs = Array.isArray(c.tabs) ? (c.tabs as JsonObject[]) : [];
    if (tabs.length > 20) add(`/containers/${i}/tabs`, 'must NOT have more than 20 items');
    const tabIds = new Set<string>();
    tabs.forEach((t, j) => {
      const tid = str(t.id) ?? '';
      const ttitle = str(t.title) ?? '';
      if (tid.length < 1 || tid.length > 256) add(`/containers/${i}/tabs/${j}/id`, 'must have 1 to 256 characters');
      if (ttitle.length < 1 || ttitle.length > 256) {
        add(`/containers/${i}/tabs/${j}/title`, 'must have 1 to 256 characters');
      }
      if (tabIds.has(tid)) add(`/containers/${i}/tabs/${j}/id`, `duplicate tab id "${tid}"`);
      tabIds.add(tid);
    });
    tabsByContainer.set(id, tabIds);
  });
  if (!Array.isArray(body.containers) && existing) {
    // Omitted containers are kept on PUT, so tiles may keep pointing at them.
    for (const c of existing.containers) {
      const tabs = Array.isArray(c.tabs) ? (c.tabs as JsonObject[]) : [];
      tabsByContainer.set(String(c.id), new Set(tabs.map((t) => String(t.id))));
    }
  }

  const tiles = Array.isArray(body.tiles) ? (body.tiles as JsonObject[]) : [];
  if (tiles.length > 500) add('/tiles', 'must NOT have more than 500 items');
  const seenTileIds = new Set<string>();
  tiles.forEach((t, i) => {
    const p = `/tiles/${i}`;
    if (typeof t.id === 'string') {
      if (t.id.length > 36) add(`${p}/id`, 'must NOT have more than 36 characters');
      if (seenTileIds.has(t.id)) add(`${p}/id`, `duplicate tile id "${t.id}"`);
      seenTileIds.add(t.id);
    }
    const x = Number(t.x);
    const y = Number(t.y);
    const w = Number(t.w);
    const h = Number(t.h);
    if (x < 0 || x > 23) add(`${p}/x`, 'must be between 0 and 23');
    if (y < 0) add(`${p}/y`, 'must be >= 0');
    if (w < 1 || w > 24) add(`${p}/w`, 'must be between 1 and 24');
    if (h < 1) add(`${p}/h`, 'must be >= 1');
    const hasConfig = t.config !== undefined;
    const hasSeries = t.series !== undefined;
    if (hasConfig === hasSeries) add(p, 'must have exactly one of config or series');
    if (Array.isArray(t.series) && t.series.length === 0) add(`${p}/series`, 'must NOT have fewer than 1 items');
    if (t.tabId !== undefined && t.containerId === undefined) add(`${p}/tabId`, 'requires containerId');
    if (typeof t.containerId === 'string') {
      const tabs = tabsByContainer.get(t.containerId);
      if (!tabs) add(`${p}/containerId`, `container "${t.containerId}" is not declared`);
      else if (typeof t.tabId === 'string' && !tabs.has(t.tabId)) {
        add(`${p}/tabId`, `tab "${t.tabId}" is not declared in container "${t.containerId}"`);
      }
    }
    if (isObject(t.config)) configIssues(t.config, `${p}/config`, add);
  });
  // The tile rules checked after the schema (validateDashboardTiles): a problem of the whole body (empty path) that
  // names the source IDs in its message.
  const heatmapSources = new Set<string>();
  for (const t of tiles) {
    const config = isObject(t.config) ? t.config : undefined;
    if (config?.displayType !== 'heatmap' || typeof config.sourceId !== 'string') continue;
    const source = data.sources.get(config.sourceId);
    if (source && source.kind !== 'trace') heatmapSources.add(config.sourceId);
  }
  if (heatmapSources.size > 0) {
    add(
      '',
      `Heatmap tiles require a Trace source. The following source IDs are not Trace sources: ${[...heatmapSources].join(', ')}`,
    );
  }
  return issues;
}

function configIssues(config: JsonObject, p: string, add: (path: string, message: string) => void): void {
  const isSql = config.configType === 'sql';
  const select = config.select;
  if (!isSql && Array.isArray(select)) {
    if (config.displayType === 'number' && select.length !== 1) {
      add(`${p}/select`, 'number tiles need exactly 1 select item');
    }
    if (config.asRatio === true && select.length !== 2) add(`${p}/select`, 'asRatio needs exactly 2 select items');
    if (select.length === 0 && config.displayType !== 'heatmap') add(`${p}/select`, 'must NOT have fewer than 1 items');
  }
  if (!isSql && typeof config.sourceId === 'string' && config.sourceId.length === 0) {
    add(`${p}/sourceId`, 'must not be empty');
  }
  if (isSql && typeof config.sqlTemplate === 'string' && config.sqlTemplate.trim().length === 0) {
    add(`${p}/sqlTemplate`, 'must not be empty');
  }
}

/** Converts a legacy `series` tile to the `config` form the API returns. */
function seriesToConfig(series: JsonObject[], asRatio: unknown): JsonObject {
  const first = series[0] ?? {};
  const type = str(first.type);
  const defined = (o: JsonObject): JsonObject =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  if (type === 'markdown') return { displayType: 'markdown', markdown: str(first.content) ?? '' };
  if (type === 'search') {
    const fields = Array.isArray(first.fields) ? (first.fields as string[]).join(', ') : '';
    return defined({
      displayType: 'search',
      sourceId: first.sourceId,
      select: fields,
      where: first.where ?? '',
      whereLanguage: first.whereLanguage ?? 'lucene',
    });
  }
  const select = series.map((s) =>
    defined({
      aggFn: s.aggFn,
      valueExpression: s.field,
      alias: s.alias,
      level: s.level,
      where: s.where,
      whereLanguage: s.whereLanguage,
      metricName: s.metricName,
      metricType: s.metricDataType,
    }),
  );
  const groupBy =
    Array.isArray(first.groupBy) && first.groupBy.length > 0 ? (first.groupBy as string[]).join(', ') : undefined;
  const displayType = type === 'time' ? (str(first.displayType) ?? 'line') : type === 'table' ? 'table' : 'number';
  return defined({
    displayType,
    sourceId: first.sourceId,
    select: displayType === 'number' ? select.slice(0, 1) : select,
    groupBy: displayType === 'number' ? undefined : groupBy,
    asRatio: asRatio === true ? true : undefined,
    numberFormat: first.numberFormat,
  });
}

function normalizeTile(t: JsonObject, id: string): JsonObject {
  const config = isObject(t.config)
    ? t.config
    : seriesToConfig(Array.isArray(t.series) ? (t.series as JsonObject[]) : [], t.asRatio);
  const out: JsonObject = { id, name: t.name, x: t.x, y: t.y, w: t.w, h: t.h, config };
  if (t.containerId !== undefined) out.containerId = t.containerId;
  if (t.tabId !== undefined) out.tabId = t.tabId;
  return { ...out, ...futureKeys(t) };
}

function dedupe(tags: string[]): string[] {
  return [...new Set(tags)];
}

/** The dashboard a create (or validate) body produces; every tile id is regenerated. */
export function dashboardFromCreate(body: JsonObject, keepTileIds = false): StoredDashboard {
  const tiles = (body.tiles as JsonObject[]).map((t) =>
    normalizeTile(t, keepTileIds && typeof t.id === 'string' ? t.id : newObjectId()),
  );
  return {
    id: newObjectId(),
    name: String(body.name),
    tiles,
    tags: dedupe(Array.isArray(body.tags) ? (body.tags as string[]) : []),
    filters: (Array.isArray(body.filters) ? (body.filters as JsonObject[]) : []).map((f) => ({
      ...f,
      id: newObjectId(),
    })),
    savedQuery: typeof body.savedQuery === 'string' ? body.savedQuery : null,
    savedQueryLanguage: typeof body.savedQueryLanguage === 'string' ? body.savedQueryLanguage : null,
    savedFilterValues: Array.isArray(body.savedFilterValues) ? (body.savedFilterValues as JsonObject[]) : [],
    containers: Array.isArray(body.containers) ? (body.containers as JsonObject[]) : [],
    extra: futureKeys(body),
  };
}

/**
 * Applies a PUT: name and tiles are replaced; tile ids matching an existing tile are kept, others regenerated;
 * the optional fields are replaced only when sent.
 */
export function dashboardFromUpdate(existing: StoredDashboard, body: JsonObject): StoredDashboard {
  const existingIds = new Set(existing.tiles.map((t) => String(t.id)));
  const tiles = (body.tiles as JsonObject[]).map((t) =>
    normalizeTile(t, typeof t.id === 'string' && existingIds.has(t.id) ? t.id : newObjectId()),
  );
  const next: StoredDashboard = { ...existing, name: String(body.name), tiles, extra: futureKeys(body) };
  if (Array.isArray(body.tags)) next.tags = dedupe(body.tags as string[]);
  if (Array.isArray(body.filters)) next.filters = body.filters as JsonObject[];
  if (body.savedQuery !== undefined) next.savedQuery = (body.savedQuery as string | null) ?? null;
  if (body.savedQueryLanguage !== undefined) {
    next.savedQueryLanguage = (body.savedQueryLanguage as string | null) ?? null;
  }
  if (Array.isArray(body.savedFilterValues)) next.savedFilterValues = body.savedFilterValues as JsonObject[];
  if (Array.isArray(body.containers)) next.containers = body.containers as JsonObject[];
  return next;
}

/** Deletes alerts whose tile is gone or no longer alertable; returns the deleted alert ids. */
export function cleanupDashboardAlerts(data: ServiceData, dashboard: StoredDashboard): string[] {
  const tiles = new Map(dashboard.tiles.map((t) => [String(t.id), t]));
  const removed: string[] = [];
  for (const alert of data.alerts.values()) {
    if (alert.source !== 'tile' || alert.dashboardId !== dashboard.id) continue;
    const tile = alert.tileId === null ? undefined : tiles.get(alert.tileId);
    const displayType = tile && isObject(tile.config) ? tile.config.displayType : undefined;
    if (!tile || typeof displayType !== 'string' || !ALERTABLE_DISPLAY_TYPES.has(displayType)) removed.push(alert.id);
  }
  for (const id of removed) data.alerts.delete(id);
  return removed;
}

export function deleteDashboardAlerts(data: ServiceData, dashboardId: string): void {
  for (const alert of [...data.alerts.values()]) {
    if (alert.dashboardId === dashboardId) data.alerts.delete(alert.id);
  }
}

export function dashboardResponse(d: StoredDashboard): JsonObject {
  const out: JsonObject = {
    id: d.id,
    name: d.name,
    tiles: d.tiles,
    tags: d.tags,
    filters: d.filters,
    savedQuery: d.savedQuery,
    savedQueryLanguage: d.savedQueryLanguage,
    savedFilterValues: d.savedFilterValues,
  };
  if (d.containers.length > 0) out.containers = d.containers;
  return { ...out, ...d.extra };
}
