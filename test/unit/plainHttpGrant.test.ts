/** A plain-http permission belongs to the exact origin it was confirmed for (API address, ClickHouse address). */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  clickHousePlainHttpAllowed,
  clickHousePlainHttpGrantable,
  needsPlainHttpConsent,
  settlePlainHttp,
  type PlainHttpFields,
} from '../../src/plainHttpGrant';

const API = 'http://hyperdx.internal:8000';
const CH = 'http://hyperdx.internal:8123';

describe('plain-http permissions', () => {
  it('needs consent for plain http beyond loopback only', () => {
    assert.equal(needsPlainHttpConsent(API), true);
    assert.equal(needsPlainHttpConsent('https://hyperdx.internal'), false);
    assert.equal(needsPlainHttpConsent('http://127.0.0.1:8000'), false);
    assert.equal(needsPlainHttpConsent('http://[::1]:8000'), false);
    assert.equal(needsPlainHttpConsent('not a url'), false);
  });

  it('a new permission is for the current address, and names its origin', () => {
    const fresh: PlainHttpFields = { baseUrl: API, allowPlainHttp: true };
    const settled = settlePlainHttp(fresh);
    assert.equal(settled.allowPlainHttp, true);
    assert.equal(settled.plainHttpOrigin, 'http://hyperdx.internal:8000');
  });

  it('a permission for another origin admits nothing: another port, host, or the same host over https', () => {
    for (const baseUrl of ['http://hyperdx.internal:9000', 'http://other.internal:8000', 'https://hyperdx.internal']) {
      const settled = settlePlainHttp({
        baseUrl,
        allowPlainHttp: true,
        plainHttpOrigin: 'http://hyperdx.internal:8000',
      });
      assert.equal(settled.allowPlainHttp, false, baseUrl);
      assert.equal(settled.plainHttpOrigin, undefined, baseUrl);
    }
  });

  it('a leftover permission of a connection that is now https does not admit plain http to its ClickHouse host', () => {
    // As an older version stored it: a bare `allowPlainHttp: true`, ClickHouse on the same host over plain http.
    const leftover: PlainHttpFields = {
      baseUrl: 'https://hyperdx.internal',
      allowPlainHttp: true,
      clickHouse: { url: CH, user: 'r' },
    };
    const settled = settlePlainHttp(leftover, true);
    assert.equal(settled.allowPlainHttp, false);
    assert.equal(settled.clickHouse?.plainHttpOrigin, undefined);
    assert.equal(clickHousePlainHttpGrantable(settled, CH), false);
    assert.equal(clickHousePlainHttpAllowed(leftover, CH), false);
  });

  it("an older entry's ClickHouse access on the API's own plain-http host keeps working, for that origin only", () => {
    const entry: PlainHttpFields = { baseUrl: API, allowPlainHttp: true, clickHouse: { url: CH, user: 'r' } };
    const older = settlePlainHttp(entry, true);
    assert.equal(older.clickHouse?.plainHttpOrigin, 'http://hyperdx.internal:8123');
    assert.equal(clickHousePlainHttpAllowed(older, CH), true);
    assert.equal(clickHousePlainHttpAllowed(older, 'http://hyperdx.internal:9999'), false);
    // Without the older-version reading, a bare permission grants ClickHouse nothing.
    const fresh = settlePlainHttp(entry);
    assert.equal(clickHousePlainHttpAllowed(fresh, CH), false);
  });

  it('ClickHouse plain http needs the API permission for the current address and the same host', () => {
    const granted: PlainHttpFields = {
      baseUrl: API,
      plainHttpOrigin: 'http://hyperdx.internal:8000',
      clickHouse: { url: CH, user: 'r', plainHttpOrigin: 'http://hyperdx.internal:8123' },
    };
    assert.equal(clickHousePlainHttpAllowed(granted, CH), true);
    assert.equal(clickHousePlainHttpAllowed({ ...granted, plainHttpOrigin: undefined }, CH), false, 'withdrawn');
    assert.equal(clickHousePlainHttpAllowed({ ...granted, baseUrl: 'https://hyperdx.internal' }, CH), false, 'moved');
    assert.equal(clickHousePlainHttpGrantable(settlePlainHttp(granted), 'http://elsewhere.internal:8123'), false);
  });
});
