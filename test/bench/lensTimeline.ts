/**
 * Where the time of one open of the bench's file goes, from timestamps taken in the extension host (the bench runs in
 * the same host as the extension, so its `performance.now()` and the lens provider's are one clock): the document
 * opened and shown, the bench's `vscode.executeCodeLensProvider` sent and answered, each call of the lens provider
 * (its entry and steps, from the extension API's `codeInsights.lensCalls()`), and the times the host did not run
 * (a 5 ms timer firing late by 20 ms or more: the host busy, or not given a core on a loaded machine).
 */
import type { LensCall } from '../../src/codeInsights/lensCalls';

export interface LoopWatch {
  stop(): { at: number; ms: number }[];
}

/** Watches the host's event loop: each time a 5 ms timer fires 20 ms or more late, from when and how long. */
export function watchLoop(): LoopWatch {
  const gaps: { at: number; ms: number }[] = [];
  let last = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    const now = performance.now();
    const late = now - last - 5;
    if (late >= 20) gaps.push({ at: last + 5, ms: late });
    last = now;
    timer = setTimeout(tick, 5);
  };
  timer = setTimeout(tick, 5);
  return {
    stop() {
      clearTimeout(timer);
      return gaps;
    },
  };
}

export interface OpenMarks {
  /** Before `openTextDocument`; when it resolved; the host's `onDidOpenTextDocument` (a file not open before). */
  start: number;
  opened: number;
  openEvent?: number | undefined;
  /** `showTextDocument` resolved (the bench then sends `vscode.executeCodeLensProvider`), and its answer came. */
  shown: number;
  answered: number;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** The open's timeline in ms from `start`, and the figures drawn from it. */
export function timeline(m: OpenMarks, calls: readonly LensCall[], gaps: { at: number; ms: number }[]) {
  const rel = (t: number | undefined) => (t === undefined ? null : r1(t - m.start));
  const first = calls.find((c) => !c.ahead && c.lenses > 0);
  // The bench's own ask: the first call of the editor's kind that came after the file was shown.
  const benchAsk = calls.find((c) => !c.ahead && c.entry >= m.shown && c.entry <= m.answered);
  const made = calls.find((c) => c.lenses > 0);
  const heldMs = (from: number, to: number) =>
    r1(gaps.filter((g) => g.at >= from && g.at < to).reduce((n, g) => n + Math.min(g.ms, to - g.at), 0));
  return {
    openedMs: rel(m.opened),
    openEventMs: rel(m.openEvent),
    shownMs: rel(m.shown),
    answeredMs: rel(m.answered),
    /** From the document opened to the first ask of the provider answered with lenses. */
    openedToProviderLensesMs: first?.returned !== undefined ? r1(first.returned - m.opened) : null,
    /** From the document opened to its lenses made (ahead, or by the first ask). */
    openedToLensesMadeMs: made?.returned !== undefined ? r1(made.returned - m.opened) : null,
    /**
     * From the host's event that started the making (the document opened, or its editor shown, for lenses made
     * ahead; the ask otherwise) to the lenses made.
     */
    eventToLensesMadeMs: made?.returned !== undefined ? r1(made.returned - made.entry) : null,
    /** The bench's ask: sent → our provider entered → our provider returned → the answer back in the bench. */
    ask:
      benchAsk?.returned !== undefined
        ? {
            toProviderMs: r1(benchAsk.entry - m.shown),
            providerMs: r1(benchAsk.returned - benchAsk.entry),
            backMs: r1(m.answered - benchAsk.returned),
            kept: benchAsk.kept,
          }
        : null,
    /** The host's event loop held (ms), while the workbench opened and showed the file, and during the bench's ask. */
    loopHeldMs: { opening: heldMs(m.start, m.shown), asking: heldMs(m.shown, m.answered) },
    longestHoldMs: r1(Math.max(0, ...gaps.map((g) => g.ms))),
    calls: calls.map((c) => ({
      entry: rel(c.entry),
      indexed: rel(c.indexed),
      symbols: rel(c.symbols),
      matched: rel(c.matched),
      returned: rel(c.returned),
      lenses: c.lenses,
      kept: c.kept,
      ahead: c.ahead,
      fromScan: c.fromScan,
    })),
  };
}
