import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { PACKED_WEBVIEWS, webviewAsset } from '../../../src/shared/webviewAssets';

describe('webviewAsset', () => {
  it('reads the plain file of a development build', () => {
    const dist = mkdtempSync(join(tmpdir(), 'obs-webview-'));
    try {
      writeFileSync(join(dist, 'queryResults.js'), 'console.log("plain");');
      assert.equal(webviewAsset(dist, 'queryResults.js'), 'console.log("plain");');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('reads an entry of the production pack, and names a missing one', () => {
    const dist = mkdtempSync(join(tmpdir(), 'obs-webview-'));
    try {
      const files = { 'preview.js': 'var ü = "ünïcode";', 'preview.css': 'body{color:red}', 'queryResults.js': 'x()' };
      writeFileSync(join(dist, PACKED_WEBVIEWS), brotliCompressSync(Buffer.from(JSON.stringify(files), 'utf8')));
      assert.equal(webviewAsset(dist, 'preview.js'), files['preview.js']);
      assert.equal(webviewAsset(dist, 'preview.css'), files['preview.css']);
      assert.equal(webviewAsset(dist, 'queryResults.js'), files['queryResults.js']);
      const other = mkdtempSync(join(tmpdir(), 'obs-webview-'));
      try {
        writeFileSync(join(other, PACKED_WEBVIEWS), brotliCompressSync(Buffer.from('{}', 'utf8')));
        assert.throws(() => webviewAsset(other, 'preview.js'), /no preview\.js in dist\/webviews\.br/);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
