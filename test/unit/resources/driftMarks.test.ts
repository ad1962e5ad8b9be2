import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DriftMarks } from '../../../src/resources/driftMarks';

describe('Drift marks shared by the service folders and the tree', () => {
  const changed = (marks: DriftMarks) => {
    const heard: string[][] = [];
    marks.onDidChange((services) => heard.push(services.map((s) => `${s.connectionId}/${s.serviceId}`)));
    return heard;
  };

  it('gives each marked resource and service its words, and nothing to the rest', () => {
    const marks = new DriftMarks();
    marks.replace([
      { connectionId: 'c', serviceId: 's', badge: 'M', tooltip: '1 file of a service folder differs from prod' },
      {
        connectionId: 'c',
        serviceId: 's',
        resource: { kind: 'alert', id: 'a/1' },
        badge: 'M',
        tooltip: 'Differs from prod: threshold',
      },
    ]);
    assert.equal(marks.markOf('c', 's')?.tooltip, '1 file of a service folder differs from prod');
    assert.equal(marks.markOf('c', 's', { kind: 'alert', id: 'a/1' })?.tooltip, 'Differs from prod: threshold');
    assert.equal(marks.markOf('c', 's', { kind: 'dashboard', id: 'a/1' }), undefined);
    assert.equal(marks.markOf('c', 'other'), undefined);
  });

  it('announces only the services whose marks changed, once each', () => {
    const marks = new DriftMarks();
    const heard = changed(marks);
    const first = { connectionId: 'c', serviceId: 's', tooltip: 'Differs from prod: tags' };
    const other = { connectionId: 'c', serviceId: 't', tooltip: 'Differs from staging: name' };
    marks.replace([first, { ...first, resource: { kind: 'dashboard', id: 'd' } }, other]);
    assert.deepEqual(heard, [['c/s', 'c/t']]);
    marks.replace([first, { ...first, resource: { kind: 'dashboard', id: 'd' } }, other]);
    assert.equal(heard.length, 1, 'the same marks again: nothing to redraw');
    marks.replace([other]);
    assert.deepEqual(heard[1], ['c/s'], 'the marks of one service went');
  });
});
