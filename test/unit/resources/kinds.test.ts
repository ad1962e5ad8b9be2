import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DOCUMENT_KINDS,
  KINDS,
  SOURCE_TEMPLATE_KINDS,
  maskedWebhookBody,
  roleTemplate,
  savedSearchTemplate,
  sourceTemplate,
  unmaskWebhookBody,
  webhookSecrets,
  webhookTemplate,
  webhookFieldsClearedByUpdate,
} from '../../../src/resources/kinds';
import { parseResourcePath, resourcePath, type ResourceRef } from '../../../src/jsonDocuments/resourcePaths';
import type { Source } from '../../../src/schema';

const CONN = '3f6a1c2e-8b4d-4e7a-9c15-0d2b8f6e4a71';
const SERVICE = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';
const SLACK = 'https://hooks.slack.com/services/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';

const SOURCES = [
  { id: '65f5e4a3b9e77c001a000001', name: 'Logs', kind: 'log', connection: '65f5e4a3b9e77c001a0000c1' },
  { id: '65f5e4a3b9e77c001a000002', name: 'Traces', kind: 'trace', connection: '65f5e4a3b9e77c001a0000c1' },
] as unknown as Source[];

describe('resource kinds', () => {
  it('every kind has its own folder, and its addresses lead back to it (new and existing)', () => {
    const folders = DOCUMENT_KINDS.map((k) => KINDS[k].folder);
    assert.equal(new Set(folders).size, folders.length);
    for (const kind of DOCUMENT_KINDS) {
      const refs: ResourceRef[] = KINDS[kind].singleton
        ? [{ connectionId: CONN, serviceId: SERVICE, kind }]
        : [
            { connectionId: CONN, serviceId: SERVICE, kind, id: '65f5e4a3b9e77c001a123456' },
            { connectionId: CONN, serviceId: SERVICE, kind, draftKey: 'new-3' },
          ];
      for (const ref of refs) {
        const path = resourcePath(ref, `My ${kind}`);
        assert.deepEqual(parseResourcePath(path), ref, path);
      }
    }
    assert.match(
      resourcePath({ connectionId: CONN, serviceId: SERVICE, kind: 'role', draftKey: 'new-1' }, 'R'),
      /\/roles\/new-1\/R\.new-role\.json$/,
    );
    // An existing role's suffix on a draft address (and the other way round) names nothing.
    assert.equal(parseResourcePath(`/${CONN}/${SERVICE}/roles/new-1/R.role.json`), undefined);
    assert.equal(parseResourcePath(`/${CONN}/${SERVICE}/roles/65f5e4a3b9e77c001a123456/R.new-role.json`), undefined);
  });

  it('templates of new resources pass their write schemas (sources: each kind with its required expressions)', () => {
    assert.equal(KINDS.webhook.schema(true).safeParse(webhookTemplate()).success, true);
    assert.equal(KINDS.role.schema(true).safeParse(roleTemplate()).success, true);
    const search = savedSearchTemplate('S', SOURCES);
    assert.equal(search.sourceId, SOURCES[0]!.id);
    assert.equal(KINDS.savedSearch.schema(true).safeParse(search).success, true);
    for (const kind of SOURCE_TEMPLATE_KINDS) {
      const body = sourceTemplate(kind, `New ${kind}`, SOURCES);
      const result = KINDS.source.schema(true).safeParse(body);
      assert.equal(result.success, true, `${kind}: ${JSON.stringify(result.error?.issues)}`);
    }
    // Without sources to copy from, the connection is left for the user (and the schema says it is missing).
    assert.equal(KINDS.source.schema(true).safeParse(sourceTemplate('log', 'L', [])).success, false);
  });

  it('a webhook is edited with its URL secret masked; unknown fields stay', () => {
    const shown = KINDS.webhook.editable({
      id: 'w1',
      name: 'Slack',
      service: 'slack',
      url: SLACK,
      createdAt: 'x',
      updatedAt: 'y',
      futureField: 1,
    });
    assert.ok(!JSON.stringify(shown).includes('hZ4kq8Wm2RtYpV6nX1sC0bJd'));
    assert.match(String(shown.url), /^https:\/\/hooks\.slack\.com\//);
    assert.equal(shown.futureField, 1);
    assert.equal('id' in shown, false);
  });

  it('an unchanged masked URL becomes the stored URL; a changed one holding the mask is refused', () => {
    const current = { url: SLACK };
    const masked = maskedWebhookBody({ name: 'Slack', service: 'slack', url: SLACK });
    const kept = unmaskWebhookBody(masked, current);
    assert.ok(kept.ok);
    assert.equal(kept.body.url, SLACK);
    const changed = unmaskWebhookBody({ ...masked, url: `${String(masked.url)}/x` }, current);
    assert.ok(!changed.ok);
    assert.deepEqual(changed.path, ['url']);
    assert.match(changed.message, /masked parts/);
    const created = unmaskWebhookBody(masked, undefined);
    assert.ok(!created.ok, 'a new webhook cannot take a masked URL');
    const header = unmaskWebhookBody({ ...masked, url: SLACK, headers: { Authorization: '••••' } }, current);
    assert.ok(!header.ok);
    assert.deepEqual(header.path, ['headers', 'Authorization']);
    const typed = unmaskWebhookBody({ name: 'G', service: 'generic', url: 'https://example.com/h' }, current);
    assert.ok(typed.ok);
    assert.equal(typed.body.url, 'https://example.com/h');
  });

  it('diffs mask header and query parameter values; the secrets list names them for redaction', () => {
    const body = {
      url: 'https://example.com/h?token=abcd1234',
      headers: { Authorization: 'Bearer sEcReT-1234' },
      queryParams: { key: 'k-123456' },
    };
    const masked = JSON.stringify(maskedWebhookBody(body));
    for (const secret of ['abcd1234', 'sEcReT-1234', 'k-123456']) assert.ok(!masked.includes(secret), secret);
    assert.deepEqual(webhookSecrets(body).sort(), [body.url, 'Bearer sEcReT-1234', 'k-123456'].sort());
  });

  it('an update to a new URL or service clears the write-only fields it leaves out (and only then)', () => {
    const current = { url: 'https://hooks.example.com/a', service: 'generic' };
    const same = { name: 'n', service: 'generic', url: 'https://hooks.example.com/a' };
    assert.deepEqual(webhookFieldsClearedByUpdate(current, same), []);
    assert.deepEqual(webhookFieldsClearedByUpdate(current, { ...same, url: 'https://hooks.example.com/b' }), [
      'headers',
      'queryParams',
    ]);
    assert.deepEqual(webhookFieldsClearedByUpdate(current, { ...same, service: 'incidentio', headers: { A: 'b' } }), [
      'queryParams',
    ]);
    assert.deepEqual(
      webhookFieldsClearedByUpdate(current, { ...same, url: 'https://x.example.com', headers: {}, queryParams: {} }),
      [],
      'an explicit {} is typed and in the diff',
    );
    assert.deepEqual(webhookFieldsClearedByUpdate(undefined, same), []);
  });

  it('a predefined role is read-only; a custom one is not', () => {
    assert.match(KINDS.role.readOnly?.({ isPredefined: true }) ?? '', /Predefined roles cannot be changed/);
    assert.equal(KINDS.role.readOnly?.({ isPredefined: false }), undefined);
  });
});
