/**
 * The scripts and style sheets of the extension's webviews (the query results panel, the tile preview and alert
 * backtest panels), read by the extension host and written into each page inline under the page's nonce.
 *
 * Development builds write them as plain files in dist/. The production build ships them together Brotli-packed in
 * dist/webviews.br (a JSON object of file name to text), about 4 KB smaller in the VSIX than the three files deflated
 * by the zip; it is decompressed (about a millisecond) the first time a webview opens and kept for the session.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

export type WebviewAsset = 'preview.js' | 'preview.css' | 'queryResults.js';

/** The packed file of the production build, beside the bundles in dist/. */
export const PACKED_WEBVIEWS = 'webviews.br';

const unpacked = new Map<string, Record<string, string>>();

/** The text of a webview asset of the build in `dist` (a folder path): the plain file, or its entry in the pack. */
export function webviewAsset(dist: string, name: WebviewAsset): string {
  const plain = join(dist, name);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  let pack = unpacked.get(dist);
  if (!pack) {
    pack = JSON.parse(brotliDecompressSync(readFileSync(join(dist, PACKED_WEBVIEWS))).toString('utf8')) as Record<
      string,
      string
    >;
    unpacked.set(dist, pack);
  }
  const text = pack[name];
  if (typeof text !== 'string') throw new Error(`The extension's build has no ${name} in dist/${PACKED_WEBVIEWS}.`);
  return text;
}
