import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webAppUrl } from '../../../src/tree/webAppUrl';

describe('Open in Web App: addresses in a self-hosted deployment', () => {
  it("uses HyperDX's routes for dashboards, alerts and saved searches", () => {
    const base = 'https://hyperdx.example.com';
    assert.equal(webAppUrl(base, { kind: 'dashboard', id: 'd1' }), 'https://hyperdx.example.com/dashboards/d1');
    assert.equal(webAppUrl(base, { kind: 'savedSearch', id: 's1' }), 'https://hyperdx.example.com/search/s1');
    assert.equal(webAppUrl(base, { kind: 'alert', id: 'a1' }), 'https://hyperdx.example.com/alerts');
  });

  it('keeps a path prefix and the port, and drops trailing slashes, query and fragment', () => {
    assert.equal(
      webAppUrl('http://127.0.0.1:8080/hdx/?x=1#y', { kind: 'dashboard', id: 'd1' }),
      'http://127.0.0.1:8080/hdx/dashboards/d1',
    );
  });

  it('encodes an ID so it stays one path segment', () => {
    assert.equal(
      webAppUrl('https://h.example', { kind: 'savedSearch', id: '../../x?y#z' }),
      'https://h.example/search/..%2F..%2Fx%3Fy%23z',
    );
  });

  it('offers nothing for an address that is not http(s)', () => {
    assert.equal(webAppUrl('not a url', { kind: 'dashboard', id: 'd1' }), undefined);
    assert.equal(webAppUrl('javascript:alert(1)', { kind: 'dashboard', id: 'd1' }), undefined);
  });
});
