/** The self-hosted flavor's rules, checked on the self-hosted emulator's real answers and on hostile bodies. */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { ossFlavor, UnsupportedOnSelfHostedError } from '../../../src/api/oss';
import type { ApiCredential, ParsedError } from '../../../src/api/flavor';

/** The parsed error with its flags spelled out (absent flags read as false). */
function norm(p: ParsedError): ParsedError {
  return { ...p, json: p.json === true, html: p.html === true };
}

interface Raw {
  status: number;
  text: string;
  headers: Record<string, string>;
}

describe('self-hosted API flavor', () => {
  let emu: Emulator;
  let cred: ApiCredential;
  before(async () => {
    emu = await startEmulator({ flavor: 'oss', rateLimit: false });
    cred = { keyId: '', secret: emu.ossApiKey };
  });
  after(() => emu.close());

  async function send(method: string, path: string, body?: unknown, auth = ossFlavor.authHeader(cred)): Promise<Raw> {
    const init: RequestInit = { method, headers: { authorization: auth }, redirect: 'manual' };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(emu.url + path, init);
    return { status: res.status, text: await res.text(), headers: Object.fromEntries(res.headers) };
  }

  it('builds /api/v2 paths with no organization or service, every segment encoded', () => {
    const scope = { organizationId: 'ignored', serviceId: 'ignored', pathSegment: 'clickstack' };
    assert.equal(ossFlavor.resourcePath(scope, 'dashboards'), '/api/v2/dashboards');
    assert.equal(
      ossFlavor.resourcePath({}, 'alerts', '65f5e4a3b9e77c001a123456'),
      '/api/v2/alerts/65f5e4a3b9e77c001a123456',
    );
    assert.equal(ossFlavor.resourcePath({}, 'dashboards', 'validate'), '/api/v2/dashboards/validate');
    assert.equal(ossFlavor.resourcePath({}, 'team', 'members'), '/api/v2/team/members');
    assert.equal(ossFlavor.resourcePath({}, 'charts', 'series'), '/api/v2/charts/series');
    assert.equal(ossFlavor.resourcePath({}, 'saved-searches', '../x?y#z'), '/api/v2/saved-searches/..%2Fx%3Fy%23z');
    assert.throws(() => ossFlavor.resourcePath({}, 'roles'), UnsupportedOnSelfHostedError);
  });

  it('authenticates with Bearer <key>, refuses a key that cannot be a header, and lists the forms to redact', () => {
    assert.equal(ossFlavor.authHeader({ keyId: '', secret: ` ${emu.ossApiKey}\n` }), `Bearer ${emu.ossApiKey}`);
    for (const bad of ['', 'short', 'has space inside it', 'line\r\nX-Evil: 1']) {
      assert.throws(
        () => ossFlavor.authHeader({ keyId: '', secret: bad }),
        (e: Error) => !e.message.includes(bad) || bad === '',
      );
    }
    const forms = ossFlavor.secretForms?.(cred) ?? [];
    assert.ok(forms.includes(emu.ossApiKey));
    assert.ok(forms.includes(`Bearer ${emu.ossApiKey}`));
  });

  it('unwraps {data} of one object and of lists, with meta.total of paged lists', async () => {
    const list = await send('GET', ossFlavor.resourcePath({}, 'alerts'));
    const alerts = ossFlavor.unwrap(JSON.parse(list.text), 'list');
    assert.equal(alerts.ok, true);
    if (!alerts.ok) return;
    const items = alerts.value as { id: string }[];
    assert.ok(items.length > 0);
    assert.equal(alerts.totalCount, items.length);

    const dashboards = ossFlavor.unwrap(
      JSON.parse((await send('GET', ossFlavor.resourcePath({}, 'dashboards'))).text),
      'list',
    );
    assert.ok(dashboards.ok && Array.isArray(dashboards.value) && dashboards.totalCount === undefined);

    const one = await send('GET', ossFlavor.resourcePath({}, 'alerts', items[0]?.id));
    const got = ossFlavor.unwrap(JSON.parse(one.text), 'one');
    assert.ok(got.ok);
    assert.equal((got.value as { id: string }).id, items[0]?.id);

    const validate = await send('POST', ossFlavor.resourcePath({}, 'dashboards', 'validate'), { tiles: [] });
    const v = ossFlavor.unwrap(JSON.parse(validate.text), 'one');
    assert.ok(v.ok);
    assert.equal((v.value as { valid: boolean }).valid, false);

    const del = await send('DELETE', ossFlavor.resourcePath({}, 'alerts', items[0]?.id));
    assert.deepEqual(ossFlavor.unwrap(JSON.parse(del.text), 'none'), { ok: true, value: undefined });
  });

  it('says what is wrong with a body that is not the {data} shape', () => {
    assert.deepEqual(ossFlavor.unwrap([], 'list'), { ok: false, problem: 'the response is not a JSON object' });
    assert.deepEqual(ossFlavor.unwrap({ result: [] }, 'list'), {
      ok: false,
      problem: 'the response has no "data"',
      path: 'data',
    });
    assert.deepEqual(ossFlavor.unwrap({ data: {} }, 'list'), {
      ok: false,
      problem: 'the data is not a list',
      path: 'data',
    });
    assert.deepEqual(ossFlavor.unwrap({ data: {} }, 'one'), {
      ok: false,
      problem: 'the data is an empty object',
      path: 'data',
    });
    assert.deepEqual(ossFlavor.unwrap({ data: null }, 'one'), {
      ok: false,
      problem: 'the data is not an object',
      path: 'data',
    });
    assert.deepEqual(ossFlavor.unwrap({ data: 'text' }, 'one'), {
      ok: false,
      problem: 'the data is not an object',
      path: 'data',
    });
    // A value that is a list (chart series) is left to the caller's schema.
    assert.deepEqual(ossFlavor.unwrap({ data: [{ ts_bucket: 1 }] }, 'one'), { ok: true, value: [{ ts_bucket: 1 }] });
  });

  it('reads the server message of every OSS error shape the emulator sends', async () => {
    const parse = (r: Raw) => norm(ossFlavor.parseError(r.status, r.text, r.headers));
    const unauthorized = await send('GET', '/api/v2/alerts', undefined, 'Bearer not-the-key');
    assert.equal(unauthorized.status, 401);
    assert.deepEqual(parse(unauthorized), { json: false, html: false, message: 'Unauthorized' });

    const invalid = await send('POST', '/api/v2/dashboards', { tiles: [] });
    assert.deepEqual(parse(invalid), { json: true, html: false, message: 'Body validation failed: name: Required' });

    const missing = await send('GET', '/api/v2/alerts/65f5e4a3b9e77c001a999999');
    assert.deepEqual(parse(missing), { json: true, html: false, message: 'Alert not found' });

    const noDashboard = await send('GET', '/api/v2/dashboards/65f5e4a3b9e77c001a999999');
    assert.deepEqual(parse(noDashboard), { json: false, html: false, message: 'Not Found' });

    const unserved = await send('GET', '/api/v2/nothing-here');
    assert.deepEqual(parse(unserved), { json: false, html: true, message: 'Cannot GET /api/v2/nothing-here' });

    emu.faults.add({
      path: '/api/v2/webhooks',
      status: 502,
      body: 'Bad Gateway',
      headers: { 'x-request-id': 'proxy-req-7' },
      times: 1,
    });
    const gateway = await send('GET', '/api/v2/webhooks');
    assert.deepEqual(parse(gateway), { json: false, html: false, message: 'Bad Gateway', requestId: 'proxy-req-7' });
  });

  it('reads a message from a cut-short JSON body and stays linear on hostile ones', () => {
    const cut = '{"message":"Body validation failed: tiles.0.config.select: Requi';
    assert.deepEqual(norm(ossFlavor.parseError(400, cut, { 'content-type': 'application/json' }, true)), {
      json: true,
      html: false,
      message: 'Body validation failed: tiles.0.config.select: Requi',
    });
    assert.deepEqual(norm(ossFlavor.parseError(400, '{"error":"Source not found for series 0"}', {})), {
      json: true,
      html: false,
      message: 'Source not found for series 0',
    });
    const hostile = [
      '{"message":"' + '\\"'.repeat(200_000),
      '<pre>' + '<'.repeat(300_000),
      '{' + '"a":1,'.repeat(100_000),
    ];
    for (const body of hostile) {
      // The process's CPU time, not the wall clock: other work on a busy machine does not count against it.
      const cpu = process.cpuUsage();
      ossFlavor.parseError(500, body, {}, true);
      const used = process.cpuUsage(cpu);
      assert.ok((used.user + used.system) / 1000 < 200, 'parseError took too long');
    }
  });
});
