/**
 * The lens provider's recent calls, timed with the extension host's `performance.now()`: when each call came and when
 * each of its steps ended. The benchmark reads them (the extension API) to tell the provider's own time from the time
 * a call waits before it comes.
 */

export interface LensCall {
  uri: string;
  version: number;
  /** When the call came. */
  entry: number;
  /** The folder's rows of this file looked up (the aggregate kept, the folder's files indexed). */
  indexed?: number;
  /** The definitions known: the symbol provider's, or the plain scan's meanwhile. */
  symbols?: number;
  /** The rows matched to the definitions and the lenses made. */
  matched?: number;
  /** When the call returned, and how many lenses. */
  returned?: number;
  lenses: number;
  /** Drawn from the plain scan while the symbol provider has not answered. */
  fromScan: boolean;
  /** The lenses were made before (when the file was opened or shown, or by an earlier call) and handed back. */
  kept: boolean;
  /** Not an ask of the editor: the lenses made ahead, the file opened or shown. */
  ahead: boolean;
}

const KEEP = 50;

export class LensCalls {
  private readonly list: LensCall[] = [];

  /** A call starting now (kept once it ends: `end`). */
  begin(uri: string, version: number, ahead = false): LensCall {
    return { uri, version, entry: performance.now(), lenses: 0, fromScan: false, kept: false, ahead };
  }

  /** The call ends now; kept unless it was made ahead for a file without lenses. */
  end(call: LensCall): void {
    call.returned = performance.now();
    if (call.ahead && call.lenses === 0) return;
    this.list.push(call);
    if (this.list.length > KEEP) this.list.shift();
  }

  /** The calls kept, oldest first (at most the last 50). */
  recent(): readonly LensCall[] {
    return [...this.list];
  }
}
