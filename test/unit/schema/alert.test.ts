import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALERT_INTERVALS,
  ALERT_SEVERITIES,
  ALERT_SOURCES,
  ALERT_STATES,
  EXECUTION_ERROR_TYPES,
  THRESHOLD_TYPES,
  alertChannelSchema,
  alertWriteSchema,
  intervalToMinutes,
  knownKeysAt,
} from '../../../src/schema';
import { SAVED_SEARCH_ID, WEBHOOK_ID, savedSearchAlertBody, seedAlertBody } from './fixtures';
import { assertIssue, assertValid, issuesOf } from './helpers';

const EMPTY = /must not be empty \(omit it or use null\)/;

function withFields(extra: Record<string, unknown>, base = seedAlertBody()): Record<string, unknown> {
  return { ...base, ...extra };
}

describe('alertWriteSchema: the specification body and enums', () => {
  it('accepts the exact create body of the specification', () => {
    const body = seedAlertBody();
    const parsed = alertWriteSchema.parse(body);
    assert.deepEqual(parsed, body);
  });

  it('accepts a saved-search alert with an email channel', () => {
    assertValid(alertWriteSchema, savedSearchAlertBody());
  });

  it('exports the documented enum values', () => {
    assert.deepEqual([...ALERT_STATES], ['ALERT', 'OK', 'PENDING', 'INSUFFICIENT_DATA', 'DISABLED']);
    assert.equal(THRESHOLD_TYPES.length, 8);
    assert.deepEqual([...ALERT_INTERVALS], ['30s', '1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d']);
    assert.deepEqual([...ALERT_SOURCES], ['tile', 'saved_search']);
    assert.ok(EXECUTION_ERROR_TYPES.includes('QUERY_TIMEOUT'));
  });

  for (const thresholdType of THRESHOLD_TYPES) {
    it(`accepts thresholdType ${thresholdType}`, () => {
      assertValid(alertWriteSchema, withFields({ thresholdType, thresholdMax: 200 }));
    });
  }
  it('rejects an unknown thresholdType', () => {
    assertIssue(alertWriteSchema, withFields({ thresholdType: 'greater' }), 'thresholdType', /must be one of/);
  });

  for (const interval of ALERT_INTERVALS) {
    it(`accepts interval ${interval}`, () => {
      assertValid(alertWriteSchema, withFields({ interval }));
    });
  }
  it('rejects an unknown interval', () => {
    assertIssue(alertWriteSchema, withFields({ interval: '2h' }), 'interval', /must be one of/);
  });

  it('rejects an unknown source', () => {
    assertIssue(alertWriteSchema, withFields({ source: 'inline' }), 'source');
  });

  for (const severity of ALERT_SEVERITIES) {
    it(`accepts webhook severity ${severity}`, () => {
      assertValid(alertChannelSchema, { type: 'webhook', webhookId: WEBHOOK_ID, severity });
    });
  }
  it('rejects an unknown severity', () => {
    assertIssue(alertChannelSchema, { type: 'webhook', webhookId: WEBHOOK_ID, severity: 'fatal' }, 'severity');
  });

  it('maps intervals to minutes', () => {
    assert.equal(intervalToMinutes('30s'), 0.5);
    assert.equal(intervalToMinutes('1h'), 60);
    assert.equal(intervalToMinutes('1d'), 1440);
  });
});

describe('alertWriteSchema: source links', () => {
  it('requires dashboardId and tileId for source tile', () => {
    const body = seedAlertBody();
    delete body.dashboardId;
    body.tileId = null;
    assertIssue(alertWriteSchema, body, 'dashboardId', /required when source is "tile"/);
    assertIssue(alertWriteSchema, body, 'tileId', /required when source is "tile"/);
  });

  // The live server drops the links of the other source instead of refusing them.
  it('lets saved-search links on a tile alert through, as the service does', () => {
    assertValid(alertWriteSchema, withFields({ savedSearchId: SAVED_SEARCH_ID }));
    assertValid(alertWriteSchema, withFields({ groupBy: 'ServiceName' }));
  });

  it('requires savedSearchId for source saved_search; tile links are let through', () => {
    const body = savedSearchAlertBody();
    delete body.savedSearchId;
    assertIssue(alertWriteSchema, body, 'savedSearchId', /required when source is "saved_search"/);
    assertValid(alertWriteSchema, withFields({ tileId: 'abc' }, savedSearchAlertBody()));
  });

  it('accepts a tileId that is any text of at most 36 characters (tile IDs are chosen by the author)', () => {
    assertValid(alertWriteSchema, withFields({ tileId: 'cpu.usage tile' }));
    assertIssue(alertWriteSchema, withFields({ tileId: 'x'.repeat(37) }), 'tileId', /at most 36/);
  });

  it('accepts null for the link that does not apply', () => {
    assertValid(alertWriteSchema, withFields({ savedSearchId: null, groupBy: null }));
  });

  it('rejects IDs that could escape a URL path', () => {
    for (const bad of ['../x', 'a/b', 'a%2F', 'a b']) {
      assertIssue(alertWriteSchema, withFields({ dashboardId: bad }), 'dashboardId', /must be an ID/);
    }
  });
});

describe('alertWriteSchema: thresholds and schedule', () => {
  for (const thresholdType of ['between', 'not_between']) {
    it(`requires thresholdMax >= threshold for ${thresholdType}`, () => {
      assertIssue(alertWriteSchema, withFields({ thresholdType }), 'thresholdMax', /required/);
      // The service refuses null here: the field is omitted instead.
      assertIssue(
        alertWriteSchema,
        withFields({ thresholdType, thresholdMax: null }),
        'thresholdMax',
        /must not be null \(omit it\)/,
      );
      assertIssue(
        alertWriteSchema,
        withFields({ thresholdType, thresholdMax: 99 }),
        'thresholdMax',
        /greater than or equal/,
      );
      assertValid(alertWriteSchema, withFields({ thresholdType, thresholdMax: 100 }));
    });
  }

  it('rejects a non-numeric threshold', () => {
    assertIssue(alertWriteSchema, withFields({ threshold: '100' }), 'threshold');
    assertIssue(alertWriteSchema, withFields({ threshold: Number.POSITIVE_INFINITY }), 'threshold');
  });

  it('bounds scheduleOffsetMinutes to 0..1439 and below the interval', () => {
    assertValid(alertWriteSchema, withFields({ interval: '1d', scheduleOffsetMinutes: 1439 }));
    assertIssue(alertWriteSchema, withFields({ interval: '1d', scheduleOffsetMinutes: 1440 }), 'scheduleOffsetMinutes');
    assertIssue(alertWriteSchema, withFields({ scheduleOffsetMinutes: -1 }), 'scheduleOffsetMinutes');
    assertIssue(alertWriteSchema, withFields({ scheduleOffsetMinutes: 1.5 }), 'scheduleOffsetMinutes', /whole/);
    assertIssue(
      alertWriteSchema,
      withFields({ interval: '1h', scheduleOffsetMinutes: 60 }),
      'scheduleOffsetMinutes',
      /less than the interval/,
    );
    assertValid(alertWriteSchema, withFields({ interval: '1h', scheduleOffsetMinutes: 59 }));
    assertIssue(alertWriteSchema, withFields({ interval: '30s', scheduleOffsetMinutes: 1 }), 'scheduleOffsetMinutes');
    assertValid(alertWriteSchema, withFields({ interval: '30s', scheduleOffsetMinutes: 0 }));
  });

  it('requires offset 0 when scheduleStartAt is set', () => {
    const startAt = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    assertIssue(
      alertWriteSchema,
      withFields({ scheduleStartAt: startAt, scheduleOffsetMinutes: 5 }),
      'scheduleOffsetMinutes',
      /must be 0/,
    );
    assertValid(alertWriteSchema, withFields({ scheduleStartAt: startAt, scheduleOffsetMinutes: 0 }));
    assertValid(alertWriteSchema, withFields({ scheduleStartAt: null, scheduleOffsetMinutes: 5 }));
  });

  it('refuses null for thresholdMax and scheduleOffsetMinutes whatever the threshold type (omit them)', () => {
    assertIssue(
      alertWriteSchema,
      withFields({ thresholdType: 'above', thresholdMax: null }),
      'thresholdMax',
      /must not be null \(omit it\)/,
    );
    assertIssue(
      alertWriteSchema,
      withFields({ scheduleOffsetMinutes: null }),
      'scheduleOffsetMinutes',
      /must not be null \(omit it\)/,
    );
    const body = withFields({});
    delete body.thresholdMax;
    delete body.scheduleOffsetMinutes;
    assertValid(alertWriteSchema, body);
  });

  it('checks the scheduleStartAt format (UTC, ending in Z) and range', () => {
    assertIssue(
      alertWriteSchema,
      withFields({ scheduleStartAt: 'tomorrow' }),
      'scheduleStartAt',
      /UTC date-time ending in "Z"/,
    );
    const inAnHour = new Date(Date.now() + 3600 * 1000);
    assertValid(alertWriteSchema, withFields({ scheduleStartAt: inAnHour.toISOString() }));
    assertValid(
      alertWriteSchema,
      withFields({
        scheduleStartAt: inAnHour
          .toISOString()
          .replace('.000Z', 'Z')
          .replace(/\.\d{3}Z$/, 'Z'),
      }),
    );
    const withOffset = inAnHour.toISOString().replace('Z', '+00:00');
    assertIssue(alertWriteSchema, withFields({ scheduleStartAt: withOffset }), 'scheduleStartAt', /ending in "Z"/);
    const local = inAnHour.toISOString().replace('Z', '');
    assertIssue(alertWriteSchema, withFields({ scheduleStartAt: local }), 'scheduleStartAt', /ending in "Z"/);
    const farFuture = new Date(Date.now() + 2 * 366 * 24 * 3600 * 1000).toISOString();
    assertIssue(alertWriteSchema, withFields({ scheduleStartAt: farFuture }), 'scheduleStartAt', /1 year/);
    assertIssue(
      alertWriteSchema,
      withFields({ scheduleStartAt: '2001-01-01T00:00:00Z' }),
      'scheduleStartAt',
      /10 years/,
    );
  });

  it('requires numConsecutiveWindows to be an integer >= 1', () => {
    assertValid(alertWriteSchema, withFields({ numConsecutiveWindows: 3 }));
    assertIssue(alertWriteSchema, withFields({ numConsecutiveWindows: 0 }), 'numConsecutiveWindows');
    assertIssue(alertWriteSchema, withFields({ numConsecutiveWindows: 1.5 }), 'numConsecutiveWindows');
  });
});

describe('alertWriteSchema: channels', () => {
  const webhook = { type: 'webhook', webhookId: WEBHOOK_ID };
  const email = { type: 'email', emailRecipients: ['a@example.com', 'b@example.com'] };

  it('accepts the webhook extras', () => {
    assertValid(alertChannelSchema, {
      ...webhook,
      webhookService: 'slack_api',
      slackChannelId: 'C01ABCDEF23',
      severity: 'critical',
    });
  });

  it('requires webhookId on a webhook channel and emailRecipients on an email channel', () => {
    assertIssue(alertWriteSchema, withFields({ channel: { type: 'webhook' } }), 'channel.webhookId', /required/);
    assertIssue(alertWriteSchema, withFields({ channel: { type: 'email' } }), 'channel.emailRecipients', /required/);
  });

  it('rejects an empty or invalid recipient list', () => {
    assertIssue(
      alertWriteSchema,
      withFields({ channel: { type: 'email', emailRecipients: [] } }),
      'channel.emailRecipients',
      /at least one/,
    );
    assertIssue(
      alertWriteSchema,
      withFields({ channel: { type: 'email', emailRecipients: ['nope'] } }),
      'channel.emailRecipients.0',
      /email/,
    );
  });

  it('keeps keys a channel variant does not know, and rejects unknown channel types', () => {
    const channel = { ...webhook, emailRecipients: ['a@example.com'], routingKey: 'r-1' };
    assert.deepEqual(alertWriteSchema.parse(withFields({ channel })).channel, channel);
    assertIssue(
      alertWriteSchema,
      withFields({ channel: { type: 'pager', webhookId: WEBHOOK_ID } }),
      'channel.type',
      /"webhook" or "email"/,
    );
  });

  it('accepts channels alone, and channel equal to channels[0]', () => {
    const body = seedAlertBody();
    delete body.channel;
    assertValid(alertWriteSchema, { ...body, channels: [webhook, email] });
    assertValid(alertWriteSchema, { ...body, channel: webhook, channels: [webhook, email] });
  });

  it('rejects channel different from channels[0]', () => {
    assertIssue(
      alertWriteSchema,
      withFields({ channel: email, channels: [webhook, email] }),
      'channel',
      /channels\[0\]/,
    );
  });

  it('rejects duplicate channels, and more than 10 or zero channels', () => {
    assertIssue(
      alertWriteSchema,
      withFields({ channel: webhook, channels: [webhook, email, { ...webhook }] }),
      'channels.2',
      /duplicates channels\[0\]/,
    );
    const many = Array.from({ length: 11 }, (_, i) => ({ type: 'webhook', webhookId: `hook${i}` }));
    assertIssue(alertWriteSchema, withFields({ channel: many[0], channels: many }), 'channels', /at most 10/);
    assertIssue(alertWriteSchema, withFields({ channels: [] }), 'channels', /at least one/);
  });

  it('requires a channel', () => {
    const body = seedAlertBody();
    delete body.channel;
    assertIssue(alertWriteSchema, body, 'channel', /required/);
  });
});

describe('alertWriteSchema: strings and unknown keys', () => {
  for (const field of ['name', 'message', 'note', 'groupBy', 'dashboardId', 'tileId', 'savedSearchId']) {
    it(`rejects an empty ${field} with a hint`, () => {
      assertIssue(alertWriteSchema, withFields({ [field]: '' }), field, EMPTY);
    });
  }

  it('rejects empty strings inside the channel', () => {
    assertIssue(
      alertWriteSchema,
      withFields({ channel: { type: 'webhook', webhookId: '' } }),
      'channel.webhookId',
      /must not be empty/,
    );
    assertIssue(
      alertWriteSchema,
      withFields({ channel: { type: 'webhook', webhookId: WEBHOOK_ID, slackChannelId: '' } }),
      'channel.slackChannelId',
      EMPTY,
    );
  });

  it('accepts null for the nullable text fields', () => {
    assertValid(alertWriteSchema, withFields({ name: null, message: null, note: null, numConsecutiveWindows: null }));
  });

  it('enforces the length limits', () => {
    assertValid(
      alertWriteSchema,
      withFields({ name: 'n'.repeat(512), message: 'm'.repeat(4096), note: 'x'.repeat(4096) }),
    );
    assertIssue(alertWriteSchema, withFields({ name: 'n'.repeat(513) }), 'name', /at most 512/);
    assertIssue(alertWriteSchema, withFields({ message: 'm'.repeat(4097) }), 'message', /at most 4096/);
    assertIssue(alertWriteSchema, withFields({ note: 'x'.repeat(4097) }), 'note', /at most 4096/);
  });

  it('keeps unknown keys in the body that is sent; knownKeysAt tells them apart', () => {
    const parsed = alertWriteSchema.parse(withFields({ state: 'OK', tresholdMax: 3 }));
    assert.equal((parsed as Record<string, unknown>).tresholdMax, 3);
    assert.equal((parsed as Record<string, unknown>).state, 'OK');
    const known = knownKeysAt('alert', []) ?? [];
    assert.ok(known.includes('thresholdMax') && known.includes('channels'));
    assert.ok(!known.includes('tresholdMax') && !known.includes('state'));
  });

  it('reports a missing required field as required', () => {
    const body = seedAlertBody();
    delete body.threshold;
    assertIssue(alertWriteSchema, body, 'threshold');
    assert.ok(issuesOf(alertWriteSchema, {}).some((issue) => issue.path === 'source'));
  });
});
