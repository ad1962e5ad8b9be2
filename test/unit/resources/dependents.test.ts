import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  alertsOnSavedSearch,
  alertsUsingWebhook,
  maskWebhookUrl,
  sourceDependents,
} from '../../../src/resources/dependents';
import type { Alert, Dashboard, SavedSearch, Source } from '../../../src/resources/model';

const alert = (id: string, fields: Record<string, unknown>): Alert => ({ id, name: id, ...fields }) as unknown as Alert;

describe('webhook URL masking', () => {
  it('keeps scheme and host, masks a Slack path token', () => {
    const masked = maskWebhookUrl('https://hooks.slack.com/services/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');
    assert.ok(masked.startsWith('https://hooks.slack.com/services/'));
    for (const secret of ['T04QX2M8K', 'B07H3LZ9Q', 'hZ4kq8Wm2RtYpV6nX1sC0bJd']) assert.ok(!masked.includes(secret));
  });
  it('masks query values and user info, keeps plain path words', () => {
    const masked = maskWebhookUrl('https://bot:s3cret@relay.example.com/v1/alerts?token=abc&routing_key=xyz');
    assert.equal(masked, 'https://••••@relay.example.com/v1/alerts?token=••••&routing_key=••••');
  });
  it('masks text that is not a URL whole; empty stays empty', () => {
    assert.equal(maskWebhookUrl('not a url with key 123'), '••••');
    assert.equal(maskWebhookUrl(undefined), '');
  });
});

describe('dependents', () => {
  const alerts = [
    alert('a1', { channel: { type: 'webhook', webhookId: 'w1' } }),
    alert('a2', {
      channels: [
        { type: 'webhook', webhookId: 'w2' },
        { type: 'webhook', webhookId: 'w1' },
      ],
    }),
    alert('a3', { savedSearchId: 's1', channel: { type: 'email', emailRecipients: ['x@example.com'] } }),
    alert('a4', { dashboardId: 'd1', tileId: 't1' }),
  ];
  it('alerts that send to a webhook, by channel or channels', () => {
    assert.deepEqual(
      alertsUsingWebhook(alerts, 'w1').map((a) => a.id),
      ['a1', 'a2'],
    );
    assert.deepEqual(alertsUsingWebhook(alerts, 'w9'), []);
  });
  it('alerts on a saved search', () => {
    assert.deepEqual(
      alertsOnSavedSearch(alerts, 's1').map((a) => a.id),
      ['a3'],
    );
  });
  it('what reads a source: tiles, saved searches, their alerts, correlated sources', () => {
    const dashboards = [
      {
        id: 'd1',
        name: 'Checkout',
        tiles: [
          { id: 't1', name: 'Errors', x: 0, y: 0, w: 1, h: 1, config: { sourceId: 'src1' } },
          { id: 't2', name: 'Other', x: 0, y: 0, w: 1, h: 1, config: { sourceId: 'src2' } },
        ],
      },
    ] as unknown as Dashboard[];
    const savedSearches = [
      { id: 's1', name: 'Errors', sourceId: 'src1' },
      { id: 's2', name: 'Else', sourceId: 'src2' },
    ] as unknown as SavedSearch[];
    const sources = [
      { id: 'src1', name: 'Logs', kind: 'log' },
      { id: 'src3', name: 'Traces', kind: 'trace', logSourceId: 'src1' },
    ] as unknown as Source[];
    const d = sourceDependents('src1', { dashboards, savedSearches, alerts, sources });
    assert.deepEqual(
      d.tiles.map((t) => t.tileName),
      ['Errors'],
    );
    assert.deepEqual(
      d.savedSearches.map((s) => s.id),
      ['s1'],
    );
    assert.deepEqual(d.alerts.map((a) => a.id).sort(), ['a3', 'a4']);
    assert.deepEqual(
      d.sources.map((s) => s.id),
      ['src3'],
    );
  });
});
