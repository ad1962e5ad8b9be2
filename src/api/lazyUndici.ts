/**
 * undici is loaded on the first request instead of when the extension activates: evaluating its modules (and
 * preparing its HTTP parser) takes longer than the whole rest of activation. The bundler keeps `require` of an
 * internal module lazy, so nothing of undici runs until `loadUndici()` is first called.
 */
import type * as Undici from './undici';

let loaded: typeof Undici | undefined;

export function loadUndici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./undici') as typeof Undici;
  return loaded;
}
