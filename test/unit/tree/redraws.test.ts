import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettledRedraws } from '../../../src/tree/redraws';

/** Rows named by path: a row's group is its first segment ("alerts/a1" → "alerts"). */
function setup() {
  const fired: string[] = [];
  const redraws = new SettledRedraws<string, string>(
    (row) => fired.push(row),
    (row) => row.split('/')[0],
    (row) => [row.split('/')[0]!],
  );
  return { fired, redraws };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Tree redraws wait for the children read under them', () => {
  it('redraws at once when nothing runs under the row', () => {
    const { fired, redraws } = setup();
    redraws.redraw('alerts');
    assert.deepEqual(fired, ['alerts']);
  });

  it('waits for every read under the row, then the turn after the last one settles', async () => {
    const { fired, redraws } = setup();
    let releaseTiles!: () => void;
    const folder = redraws.track('dashboards', async () => ['d1']);
    const tiles = redraws.track('dashboards/d1', () => new Promise<string[]>((r) => (releaseTiles = () => r(['t1']))));
    redraws.redraw('dashboards');
    redraws.redraw('alerts');
    assert.deepEqual(fired, ['alerts'], 'another folder is not held back');
    await folder;
    await turn();
    assert.deepEqual(fired, ['alerts'], 'the tiles are still being read');
    releaseTiles();
    await tiles;
    assert.deepEqual(fired, ['alerts'], 'not on the turn the tiles are handed over');
    await turn();
    assert.deepEqual(fired, ['alerts', 'dashboards']);
  });

  it('drops a redraw that is no longer needed when its turn comes, and asks once', async () => {
    const { fired, redraws } = setup();
    let needed = true;
    const read = redraws.track('alerts', async () => []);
    redraws.redraw('alerts', () => needed);
    redraws.redraw('alerts', () => needed);
    needed = false;
    await read;
    await turn();
    assert.deepEqual(fired, []);
    const again = redraws.track('alerts', async () => []);
    redraws.redraw('alerts', () => true);
    redraws.redraw('alerts', () => true);
    await again;
    await turn();
    assert.deepEqual(fired, ['alerts'], 'one redraw for two requests');
  });
});
