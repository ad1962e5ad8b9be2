import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceDriftUri } from '../../../src/resources/driftUri';

describe('resourceDriftUri', () => {
  it('names a service, and one resource of it below the service', () => {
    assert.equal(resourceDriftUri('c1', 's1'), 'observability-drift:/c1/s1');
    assert.equal(
      resourceDriftUri('c1', 's1', { kind: 'dashboard', id: 'd1' }),
      'observability-drift:/c1/s1/dashboard/d1',
    );
  });

  it('keeps each part one path segment, whatever it holds', () => {
    assert.equal(
      resourceDriftUri('a/b', 's 1', { kind: 'savedSearch', id: '../x?y#z' }),
      'observability-drift:/a%2Fb/s%201/savedSearch/..%2Fx%3Fy%23z',
    );
  });
});
