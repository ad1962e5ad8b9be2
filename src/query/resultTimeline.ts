/**
 * The stages of a result on its way to the screen (`ResultTimeline`), stamped where each happens: the extension host
 * (the feed's stages, the report's arrival) and the webview (its messages' arrival and paint, sent with its reports).
 * Both use the machine's one clock, so the stamps compare. Plain TypeScript (no `vscode`).
 */
import type { StampedReport, WebviewStamps } from './panelMessages';
import type { ResultTimeline } from './panelState';
import type { FeedStage } from './resultFeed';

/** Holds the timeline of the latest result; stamps of an older result are dropped. */
export interface TimelineHolder {
  timeline?: ResultTimeline;
}

/** The timeline of result `seq`: a new one for a newer result when `create`; undefined for an older one. */
function timelineOf(h: TimelineHolder, seq: number, create: boolean): ResultTimeline | undefined {
  const t = h.timeline;
  if (t?.seq === seq) return t;
  if (!create || (t && t.seq > seq)) return undefined;
  h.timeline = { seq };
  return h.timeline;
}

/** A stage seen in the extension host, at `at`. */
export function stampFeed(h: TimelineHolder, seq: number, stage: FeedStage, at: number): void {
  const t = timelineOf(h, seq, true);
  if (t) t[stage] ??= at;
}

/**
 * The webview's stamps of a report of result `seq`, which arrived here at `now`. A result shown whole has no
 * separate first rows: its first rows are painted with its summary.
 */
export function stampWebview(
  h: TimelineHolder,
  report: StampedReport,
  seq: number,
  s: WebviewStamps,
  now: number,
): void {
  const t = timelineOf(h, seq, false);
  if (!t) return;
  if (report === 'loaded') {
    t.allRowsIn ??= s.at;
    return;
  }
  if (report === 'rendered') {
    t.summaryReceived ??= s.received;
    t.summaryPainted ??= s.at;
    t.reportReceived ??= now;
  }
  t.firstReceived ??= s.received;
  t.firstPainted ??= s.at;
}
