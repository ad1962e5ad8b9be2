import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AGG_FNS,
  ALERTABLE_DISPLAY_TYPES,
  METRIC_TYPES,
  QUANTILE_LEVELS,
  RAW_SQL_DISPLAY_TYPES,
  TILE_DISPLAY_TYPES,
  dashboardUpdateSchema,
  dashboardWriteSchema,
  isAlertableDisplayType,
  tileConfigSchema,
  tileSchema,
} from '../../../src/schema';
import { CONNECTION_ID, SOURCE_ID, dashboardBody, lineTile } from './fixtures';
import { assertIssue, assertValid } from './helpers';

function tile(extra: Record<string, unknown> = {}, id?: string): Record<string, unknown> {
  return { ...lineTile(id), ...extra };
}

function assertEqualKept(parsed: unknown, path: (string | number)[], expected: unknown): void {
  let value: unknown = parsed;
  for (const segment of path) value = (value as Record<string | number, unknown>)[segment];
  assert.deepEqual(value, expected, `expected ${JSON.stringify(expected)} kept at ${path.join('.')}`);
}

function withTiles(tiles: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'D', tiles, ...extra };
}

const builderConfigs: Record<string, Record<string, unknown>> = {
  line: { displayType: 'line', sourceId: SOURCE_ID, select: [{ aggFn: 'count' }], fitYAxisToData: true },
  stacked_bar: {
    displayType: 'stacked_bar',
    sourceId: SOURCE_ID,
    select: [{ aggFn: 'sum', valueExpression: 'Bytes' }],
  },
  table: {
    displayType: 'table',
    sourceId: SOURCE_ID,
    select: [{ aggFn: 'count' }],
    groupBy: 'ServiceName',
    orderBy: 'count DESC',
  },
  number: {
    displayType: 'number',
    sourceId: SOURCE_ID,
    select: [{ aggFn: 'avg', valueExpression: 'Duration' }],
    color: 'chart-red',
  },
  pie: { displayType: 'pie', sourceId: SOURCE_ID, select: [{ aggFn: 'count' }], groupBy: 'ServiceName', limit: 10 },
  bar: { displayType: 'bar', sourceId: SOURCE_ID, select: [{ aggFn: 'count' }], groupBy: 'ServiceName' },
  heatmap: {
    displayType: 'heatmap',
    sourceId: SOURCE_ID,
    select: [{ valueExpression: 'Duration', heatmapScaleType: 'log' }],
  },
  search: { displayType: 'search', sourceId: SOURCE_ID, select: 'Timestamp, Body', whereLanguage: 'lucene', where: '' },
  event_patterns: { displayType: 'event_patterns', sourceId: SOURCE_ID },
  markdown: { displayType: 'markdown', markdown: '# Hello' },
};

describe('tile configs', () => {
  it('covers every display type', () => {
    assert.deepEqual(Object.keys(builderConfigs).sort(), [...TILE_DISPLAY_TYPES].sort());
    assert.deepEqual([...ALERTABLE_DISPLAY_TYPES], ['line', 'stacked_bar', 'number']);
    assert.ok(isAlertableDisplayType('number'));
    assert.ok(!isAlertableDisplayType('table'));
  });

  for (const [displayType, config] of Object.entries(builderConfigs)) {
    it(`accepts a ${displayType} builder config`, () => {
      assertValid(tileConfigSchema, config);
    });
  }

  for (const displayType of RAW_SQL_DISPLAY_TYPES) {
    it(`accepts a ${displayType} raw SQL config and requires its fields`, () => {
      const raw = { configType: 'sql', displayType, connectionId: CONNECTION_ID, sqlTemplate: 'SELECT 1' };
      assertValid(tileConfigSchema, raw);
      assertIssue(
        tileConfigSchema,
        { configType: 'sql', displayType, sqlTemplate: 'SELECT 1' },
        'connectionId',
        /required/,
      );
      // The service takes an empty template (it only bounds the length).
      assertValid(tileConfigSchema, { ...raw, sqlTemplate: '' });
      assertIssue(tileConfigSchema, { ...raw, sqlTemplate: 'x'.repeat(100001) }, 'sqlTemplate', /at most 100000/);
    });
  }

  for (const displayType of ['heatmap', 'search', 'event_patterns', 'markdown']) {
    it(`rejects raw SQL for ${displayType}`, () => {
      assertIssue(
        tileConfigSchema,
        { ...builderConfigs[displayType], configType: 'sql' },
        'configType',
        /omitted|no raw SQL/,
      );
    });
  }

  it('rejects an unknown displayType or configType', () => {
    assertIssue(tileConfigSchema, { displayType: 'timeline', sourceId: SOURCE_ID }, 'displayType', /must be one of/);
    assertIssue(tileConfigSchema, { ...builderConfigs.line, configType: 'promql' }, 'configType', /"sql"/);
  });

  it('requires sourceId and select on builder configs', () => {
    assertIssue(tileConfigSchema, { displayType: 'line', select: [{ aggFn: 'count' }] }, 'sourceId', /required/);
    assertIssue(tileConfigSchema, { displayType: 'table', sourceId: SOURCE_ID }, 'select', /required/);
    assertIssue(tileConfigSchema, { displayType: 'line', sourceId: SOURCE_ID, select: [] }, 'select', /at least one/);
    // whereLanguage of a search tile is optional on the service.
    assertValid(tileConfigSchema, { displayType: 'search', sourceId: SOURCE_ID, select: 'Body' });
  });

  for (const aggFn of AGG_FNS) {
    it(`accepts aggFn ${aggFn}`, () => {
      const item = aggFn === 'count' ? { aggFn } : { aggFn, valueExpression: 'Duration' };
      assertValid(tileConfigSchema, { ...builderConfigs.line, select: [item] });
    });
  }
  it('rejects an unknown aggFn', () => {
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.line, select: [{ aggFn: 'median' }] },
      'select.0.aggFn',
      /must be one of/,
    );
  });

  for (const level of QUANTILE_LEVELS) {
    it(`accepts quantile level ${level}`, () => {
      assertValid(tileConfigSchema, {
        ...builderConfigs.line,
        select: [{ aggFn: 'quantile', level, valueExpression: 'Duration' }],
      });
    });
  }
  it('rejects other levels and a level without quantile', () => {
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.line, select: [{ aggFn: 'quantile', level: 0.75 }] },
      'select.0.level',
    );
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.line, select: [{ aggFn: 'quantile', level: '0.5' }] },
      'select.0.level',
    );
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.line, select: [{ aggFn: 'avg', level: 0.5 }] },
      'select.0.level',
      /quantile/,
    );
  });

  for (const metricType of METRIC_TYPES) {
    it(`accepts metricType ${metricType}`, () => {
      assertValid(tileConfigSchema, {
        ...builderConfigs.line,
        select: [{ aggFn: 'sum', valueExpression: 'Value', metricName: 'm', metricType }],
      });
    });
  }
  it('rejects an unknown metricType and whereLanguage', () => {
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.line, select: [{ aggFn: 'sum', metricType: 'counter' }] },
      'select.0.metricType',
    );
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.line, select: [{ aggFn: 'count', whereLanguage: 'kql' }] },
      'select.0.whereLanguage',
    );
  });

  it('checks asRatio and the number select count', () => {
    assertIssue(tileConfigSchema, { ...builderConfigs.line, asRatio: true }, 'asRatio', /two select items/);
    assertValid(tileConfigSchema, {
      ...builderConfigs.line,
      asRatio: true,
      select: [{ aggFn: 'count' }, { aggFn: 'count' }],
    });
    assertIssue(
      tileConfigSchema,
      { ...builderConfigs.number, select: [{ aggFn: 'count' }, { aggFn: 'count' }] },
      'select',
      /exactly one/,
    );
    assertValid(tileConfigSchema, {
      ...builderConfigs.number,
      select: [{ aggFn: 'count' }, { aggFn: 'count' }],
      formulas: [{ expression: 'A / B' }],
    });
  });

  it('keeps config fields it does not know (newer chart options)', () => {
    const config = { ...builderConfigs.line, seriesLimit: 5, futureOption: { a: 1 } };
    assert.deepEqual(tileConfigSchema.parse(config), config);
  });

  it('checks colors', () => {
    assertIssue(tileConfigSchema, { ...builderConfigs.number, color: 'red' }, 'color');
  });
});

describe('tiles and layout', () => {
  it('enforces the 24-column grid', () => {
    assertValid(tileSchema, tile({ x: 23, w: 1, y: 0, h: 1 }));
    assertValid(tileSchema, tile({ x: 0, w: 24, y: 1000, h: 50 }));
    assertIssue(tileSchema, tile({ x: 24 }), 'x', /between 0 and 23/);
    assertIssue(tileSchema, tile({ x: -1 }), 'x');
    assertIssue(tileSchema, tile({ w: 0 }), 'w', /between 1 and 24/);
    assertIssue(tileSchema, tile({ w: 25 }), 'w');
    assertIssue(tileSchema, tile({ y: -1 }), 'y');
    assertIssue(tileSchema, tile({ h: 0 }), 'h');
    // The service takes any number on the grid.
    assertValid(tileSchema, tile({ h: 1.5 }));
    assertIssue(tileSchema, tile({ h: '2' }), 'h', /must be a number/);
  });

  it('requires config (or legacy series) but not both', () => {
    const { config: _config, ...bare } = lineTile();
    assertIssue(tileSchema, bare, 'config', /required/);
    assertValid(tileSchema, { ...bare, series: [{ type: 'time' }] });
    assertIssue(tileSchema, tile({ series: [{ type: 'time' }] }), 'series', /not both/);
  });

  it('limits tile IDs to 36 characters and keeps unknown tile keys', () => {
    assertIssue(tileSchema, tile({}, 'x'.repeat(37)), 'id', /at most 36/);
    // An empty ID is taken by the service (it assigns a new one).
    assertValid(tileSchema, tile({}, ''));
    assert.equal((tileSchema.parse(tile({ color: 'red' })) as Record<string, unknown>).color, 'red');
  });
});

describe('dashboardWriteSchema and dashboardUpdateSchema', () => {
  it('accepts a realistic create body', () => {
    assertValid(dashboardWriteSchema, dashboardBody());
  });

  it('requires name and tiles, and limits the name', () => {
    assertIssue(dashboardWriteSchema, { tiles: [] }, 'name', /required/);
    assertIssue(dashboardWriteSchema, { name: 'x' }, 'tiles', /required/);
    // The service bounds the name only.
    assertValid(dashboardWriteSchema, withTiles([], { name: '' }));
    assertValid(dashboardWriteSchema, withTiles([], { name: 'n'.repeat(1024) }));
    assertIssue(dashboardWriteSchema, withTiles([], { name: 'n'.repeat(1025) }), 'name', /at most 1024/);
  });

  it('limits tiles to 500 with unique IDs', () => {
    const tiles = Array.from({ length: 500 }, (_, i) => tile({}, `t${i}`));
    assertValid(dashboardWriteSchema, withTiles(tiles));
    assertIssue(dashboardWriteSchema, withTiles([...tiles, tile({}, 'extra')]), 'tiles', /at most 500/);
    assertIssue(
      dashboardWriteSchema,
      withTiles([tile({}, 'a'), tile({}, 'b'), tile({}, 'a')]),
      'tiles.2.id',
      /duplicates the id of tiles\[0\]/,
    );
    assertValid(dashboardWriteSchema, withTiles([tile({ id: undefined }), tile({ id: undefined })]));
  });

  it('limits tags', () => {
    const tags = Array.from({ length: 50 }, (_, i) => `tag${i}`);
    assertValid(dashboardWriteSchema, withTiles([], { tags }));
    assertIssue(dashboardWriteSchema, withTiles([], { tags: [...tags, 'one-more'] }), 'tags', /at most 50/);
    assertIssue(dashboardWriteSchema, withTiles([], { tags: ['x'.repeat(33)] }), 'tags.0', /at most 32/);
    assertValid(dashboardWriteSchema, withTiles([], { tags: [''] }));
  });

  it('applies the savedQuery / savedQueryLanguage rule', () => {
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { savedQuery: 'a:b', savedQueryLanguage: null }),
      'savedQueryLanguage',
      /not be null/,
    );
    assertValid(dashboardWriteSchema, withTiles([], { savedQuery: null, savedQueryLanguage: null }));
    assertValid(dashboardWriteSchema, withTiles([], { savedQuery: 'a:b', savedQueryLanguage: 'lucene' }));
    assertIssue(dashboardWriteSchema, withTiles([], { savedQueryLanguage: 'kql' }), 'savedQueryLanguage');
  });

  it('checks filters: no id on create, id on update, strict keys', () => {
    const filter = { type: 'QUERY_EXPRESSION', name: 'Env', expression: 'env', sourceId: SOURCE_ID };
    assertValid(dashboardWriteSchema, withTiles([], { filters: [filter] }));
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { filters: [{ ...filter, id: 'f1' }] }),
      'filters.0.id',
      /not allowed when creating/,
    );
    assertIssue(dashboardUpdateSchema, withTiles([], { filters: [filter] }), 'filters.0.id', /required/);
    assertValid(dashboardUpdateSchema, withTiles([], { filters: [{ ...filter, id: 'f1' }] }));
    assertIssue(dashboardWriteSchema, withTiles([], { filters: [{ ...filter, type: 'STATIC' }] }), 'filters.0.type');
    assertEqualKept(
      dashboardWriteSchema.parse(withTiles([], { filters: [{ ...filter, extra: 1 }] })),
      ['filters', 0, 'extra'],
      1,
    );
  });

  it('limits containers and tabs and requires unique ids', () => {
    const containers = Array.from({ length: 50 }, (_, i) => ({ id: `c${i}`, title: `C${i}`, collapsed: false }));
    assertValid(dashboardWriteSchema, withTiles([], { containers }));
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { containers: [...containers, { id: 'x', title: 'X', collapsed: true }] }),
      'containers',
      /at most 50/,
    );
    const tabs = Array.from({ length: 21 }, (_, i) => ({ id: `t${i}`, title: `T${i}` }));
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { containers: [{ id: 'c', title: 'C', collapsed: false, tabs }] }),
      'containers.0.tabs',
      /at most 20/,
    );
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { containers: [containers[0], containers[0]] }),
      'containers.1.id',
      /duplicate/,
    );
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { containers: [{ id: 'c', title: 'C' }] }),
      'containers.0.collapsed',
      /required/,
    );
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { containers: [{ id: 'x'.repeat(257), title: 'C', collapsed: false }] }),
      'containers.0.id',
      /at most 256/,
    );
  });

  it('resolves containerId and tabId', () => {
    const body = dashboardBody();
    const tiles = body.tiles as Record<string, unknown>[];
    tiles[1] = { ...tiles[1], containerId: 'missing' };
    assertIssue(dashboardWriteSchema, body, 'tiles.1.containerId', /no container/);
    tiles[1] = { ...tiles[1], containerId: 'health', tabId: 'nope' };
    assertIssue(dashboardWriteSchema, body, 'tiles.1.tabId', /no tab/);
    const { containerId: _c, ...noContainer } = tiles[1];
    tiles[1] = noContainer;
    assertIssue(dashboardWriteSchema, body, 'tiles.1.tabId', /needs "containerId"/);
  });

  it('checks container references on update only when containers are sent', () => {
    const ref = tile({ containerId: 'kept-on-server' });
    assertValid(dashboardUpdateSchema, withTiles([ref]));
    assertIssue(dashboardUpdateSchema, withTiles([ref], { containers: [] }), 'tiles.0.containerId', /no container/);
    assertIssue(dashboardWriteSchema, withTiles([ref]), 'tiles.0.containerId', /no container/);
  });

  it('keeps unknown top-level keys and checks savedFilterValues conditions as the service does', () => {
    assertEqualKept(dashboardWriteSchema.parse(withTiles([], { layoutVersion: 3 })), ['layoutVersion'], 3);
    assertValid(
      dashboardWriteSchema,
      withTiles([], { savedFilterValues: [{ type: 'sql', condition: "a = 'b'" }, { condition: 'x' }] }),
    );
    assertValid(dashboardWriteSchema, withTiles([], { savedFilterValues: [{ condition: '' }] }));
    assertIssue(
      dashboardWriteSchema,
      withTiles([], { savedFilterValues: [{ condition: 'x'.repeat(10001) }] }),
      'savedFilterValues.0.condition',
      /at most 10000/,
    );
  });
});
