import * as assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  RESOURCE_SCHEME,
  fileLabel,
  isNew,
  parseResourcePath,
  refKey,
  resourcePath,
  sameResource,
  useServiceNames,
  type ResourceRef,
  type ServiceNames,
} from '../../../src/jsonDocuments/resourcePaths';

const CONN = '3f6a1c2e-8b4d-4e7a-9c15-0d2b8f6e4a71';
const OTHER_CONN = '7b2d9e4f-1c3a-4b5e-8f6d-2a0c4e6b8d13';
const SERVICE = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';
const OTHER_SERVICE = 'c5e7a9b1-3d4f-4a6c-8e0b-2d4f6a8c0e1b';
const ALERT_ID = '65f5e4a3b9e77c001a123456';
const DASHBOARD_ID = '65f5e4a3b9e77c001a567890';

/** A lookup of readable names over a fixed list of connections and services. */
function names(
  entries: { connectionId: string; connection: string; serviceId: string; service: string }[],
): ServiceNames {
  return {
    namesOf: (connectionId, serviceId) => {
      const e = entries.find((x) => x.connectionId === connectionId && x.serviceId === serviceId);
      return e && { connection: e.connection, service: e.service };
    },
    all: () => entries,
  };
}

/** Every kind of document, with the address it gets. */
const CASES: { what: string; ref: ResourceRef; name: string | null; path: string }[] = [
  {
    what: 'an alert',
    ref: { connectionId: CONN, serviceId: SERVICE, kind: 'alert', id: ALERT_ID },
    name: 'High error rate',
    path: `/${CONN}/${SERVICE}/alerts/${ALERT_ID}/High error rate.alert.json`,
  },
  {
    what: 'a new alert',
    ref: { connectionId: CONN, serviceId: SERVICE, kind: 'alert', draftKey: 'new-3' },
    name: 'Draft',
    path: `/${CONN}/${SERVICE}/alerts/new-3/Draft.alert.json`,
  },
  {
    what: 'a dashboard',
    ref: { connectionId: CONN, serviceId: SERVICE, kind: 'dashboard', id: DASHBOARD_ID },
    name: 'Service overview',
    path: `/${CONN}/${SERVICE}/dashboards/${DASHBOARD_ID}/Service overview.dashboard.json`,
  },
  {
    what: 'a new dashboard',
    ref: { connectionId: CONN, serviceId: SERVICE, kind: 'dashboard', draftKey: 'new-1' },
    name: 'Board',
    path: `/${CONN}/${SERVICE}/dashboards/new-1/Board.new-dashboard.json`,
  },
  {
    what: 'the query endpoint',
    ref: { connectionId: CONN, serviceId: SERVICE, kind: 'queryEndpoint' },
    name: 'checkout-prod',
    path: `/${CONN}/${SERVICE}/query-endpoint/current/checkout-prod.query-endpoint.json`,
  },
];

describe('Resource document addresses', () => {
  afterEach(() => useServiceNames(undefined));

  it('use the observability scheme', () => {
    assert.equal(RESOURCE_SCHEME, 'observability');
  });

  for (const c of CASES) {
    it(`give ${c.what} a readable address that leads back to it`, () => {
      const path = resourcePath(c.ref, c.name);
      assert.equal(path, c.path);
      assert.deepEqual(parseResourcePath(path), c.ref);
    });
  }

  it('tell new documents from existing ones (the query endpoint always exists)', () => {
    assert.deepEqual(
      CASES.map((c) => isNew(c.ref)),
      [false, true, false, true, false],
    );
  });

  it('choose the JSON Schema by suffix: a new dashboard is not an existing one', () => {
    assert.equal(parseResourcePath(`/${CONN}/${SERVICE}/dashboards/new-1/Board.dashboard.json`), undefined);
    assert.equal(
      parseResourcePath(`/${CONN}/${SERVICE}/dashboards/${DASHBOARD_ID}/Board.new-dashboard.json`),
      undefined,
    );
    assert.equal(parseResourcePath(`/${CONN}/${SERVICE}/alerts/${ALERT_ID}/Board.dashboard.json`), undefined);
    assert.equal(parseResourcePath(`/${CONN}/${SERVICE}/query-endpoint/other/x.query-endpoint.json`), undefined);
  });

  it('name a document without a name after its ID, or as new', () => {
    assert.equal(
      resourcePath(CASES[0]!.ref, null),
      `/${CONN}/${SERVICE}/alerts/${ALERT_ID}/Alert ${ALERT_ID}.alert.json`,
    );
    assert.equal(resourcePath(CASES[1]!.ref, ''), `/${CONN}/${SERVICE}/alerts/new-3/New alert.alert.json`);
    assert.equal(
      resourcePath(CASES[3]!.ref, undefined),
      `/${CONN}/${SERVICE}/dashboards/new-1/New dashboard.new-dashboard.json`,
    );
    assert.equal(
      resourcePath(CASES[4]!.ref, '   '),
      `/${CONN}/${SERVICE}/query-endpoint/current/Query endpoint.query-endpoint.json`,
    );
  });

  it('keep a name with separators, dots and control characters to one harmless path segment', () => {
    const hostile = '../../etc/passwd: a\\b*c?"d"<e>|f\u0000g\r\nh';
    const path = resourcePath(CASES[0]!.ref, hostile);
    assert.equal(path.split('/').length, 6, path);
    assert.equal(path, `/${CONN}/${SERVICE}/alerts/${ALERT_ID}/.. etc passwd a b c d e f g h.alert.json`);
    assert.deepEqual(parseResourcePath(path), CASES[0]!.ref);
  });

  it('shorten a long name to 80 characters', () => {
    const label = fileLabel('x'.repeat(200), 'fallback');
    assert.equal(label.length, 80);
  });

  it('label files with what is left of the name, or the fallback', () => {
    assert.equal(fileLabel('  Checkout   errors  ', 'f'), 'Checkout errors');
    assert.equal(fileLabel('...hidden', 'f'), 'hidden');
    assert.equal(fileLabel('a/b:c', 'f'), 'a b c');
    assert.equal(fileLabel('///', 'f'), 'f');
    assert.equal(fileLabel('..', 'f'), 'f');
    assert.equal(fileLabel(null, 'f'), 'f');
    assert.equal(fileLabel(undefined, 'f'), 'f');
  });

  it('refuse addresses that are not ours: wrong shape, or IDs with dots, spaces or separators', () => {
    for (const path of [
      '',
      '/',
      `/${CONN}/${SERVICE}/alerts/${ALERT_ID}`,
      `/${CONN}/${SERVICE}/alerts/${ALERT_ID}/x/y.alert.json`,
      `/${CONN}/${SERVICE}/alerts/../x.alert.json`,
      `/${CONN}/${SERVICE}/alerts/my alert/x.alert.json`,
      `/${CONN}/${SERVICE}/alerts/50%/x.alert.json`,
      `/${CONN}/${SERVICE}/webhooks/${ALERT_ID}/x.alert.json`,
      `/../${SERVICE}/alerts/${ALERT_ID}/x.alert.json`,
      `/${CONN}/${SERVICE}/alerts/${ALERT_ID}/x.json`,
    ]) {
      assert.equal(parseResourcePath(path), undefined, path);
    }
  });

  it('identify a resource whatever its file name says', () => {
    const renamed = parseResourcePath(`/${CONN}/${SERVICE}/alerts/${ALERT_ID}/Renamed.alert.json`)!;
    assert.ok(sameResource(renamed, CASES[0]!.ref));
    assert.equal(refKey(renamed), `${CONN}/${SERVICE}/alerts/${ALERT_ID}`);
    assert.equal(refKey(CASES[1]!.ref), `${CONN}/${SERVICE}/alerts/new-3`);
    assert.equal(refKey(CASES[4]!.ref), `${CONN}/${SERVICE}/query-endpoint/current`);
    assert.ok(!sameResource(CASES[0]!.ref, { ...CASES[0]!.ref, serviceId: OTHER_SERVICE }));
    assert.ok(!sameResource(CASES[0]!.ref, CASES[1]!.ref));
  });
});

describe('Resource document addresses with readable names', () => {
  afterEach(() => useServiceNames(undefined));

  it('show the connection label and service name in place of the IDs, and lead back to the IDs', () => {
    useServiceNames(
      names([
        { connectionId: CONN, connection: 'Production', serviceId: SERVICE, service: 'checkout-prod' },
        { connectionId: CONN, connection: 'Production', serviceId: OTHER_SERVICE, service: 'payments-prod' },
      ]),
    );
    for (const c of CASES) {
      const path = resourcePath(c.ref, c.name);
      assert.ok(path.startsWith('/Production/checkout-prod/'), path);
      assert.deepEqual(parseResourcePath(path), c.ref);
    }
  });

  it('make the names path-safe, and still lead back', () => {
    useServiceNames(
      names([{ connectionId: CONN, connection: 'Prod / EU', serviceId: SERVICE, service: 'checkout: prod' }]),
    );
    const path = resourcePath(CASES[0]!.ref, 'High error rate');
    assert.equal(path, `/Prod EU/checkout prod/alerts/${ALERT_ID}/High error rate.alert.json`);
    assert.deepEqual(parseResourcePath(path), CASES[0]!.ref);
  });

  it('keep the IDs when two connections share the names, so the address stays unambiguous', () => {
    useServiceNames(
      names([
        { connectionId: CONN, connection: 'Production', serviceId: SERVICE, service: 'checkout-prod' },
        { connectionId: OTHER_CONN, connection: 'Production', serviceId: OTHER_SERVICE, service: 'checkout-prod' },
      ]),
    );
    const path = resourcePath(CASES[0]!.ref, 'High error rate');
    assert.equal(path, CASES[0]!.path);
    assert.deepEqual(parseResourcePath(path), CASES[0]!.ref);
    assert.equal(
      parseResourcePath(`/Production/checkout-prod/alerts/${ALERT_ID}/x.alert.json`)?.connectionId,
      'Production',
      'ambiguous names are not resolved to either connection',
    );
  });

  it('keep the IDs when the names are the IDs of another connection and service', () => {
    useServiceNames(
      names([
        { connectionId: CONN, connection: OTHER_CONN, serviceId: SERVICE, service: OTHER_SERVICE },
        { connectionId: OTHER_CONN, connection: 'Staging', serviceId: OTHER_SERVICE, service: 'checkout-staging' },
      ]),
    );
    const path = resourcePath(CASES[0]!.ref, 'High error rate');
    assert.equal(path, CASES[0]!.path);
    // An address with IDs always means those IDs.
    const other = parseResourcePath(`/${OTHER_CONN}/${OTHER_SERVICE}/alerts/${ALERT_ID}/x.alert.json`);
    assert.equal(other?.connectionId, OTHER_CONN);
    assert.equal(other?.serviceId, OTHER_SERVICE);
  });

  it('keep resolving addresses with IDs, and addresses written before the names were known', () => {
    const before = resourcePath(CASES[2]!.ref, 'Service overview');
    useServiceNames(
      names([{ connectionId: CONN, connection: 'Production', serviceId: SERVICE, service: 'checkout-prod' }]),
    );
    assert.deepEqual(parseResourcePath(before), CASES[2]!.ref);
  });

  it('leave a readable address unresolved once its connection is gone', () => {
    useServiceNames(
      names([{ connectionId: CONN, connection: 'Production', serviceId: SERVICE, service: 'checkout-prod' }]),
    );
    const path = resourcePath(CASES[0]!.ref, 'x');
    useServiceNames(names([]));
    const ref = parseResourcePath(path);
    assert.notEqual(ref?.connectionId, CONN);
  });
});
