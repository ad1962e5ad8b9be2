/**
 * Where production exceptions come from in the workspace: each group's stack trace is read into frames, and the top
 * in-workspace frame of the exception thrown (the first frame of the text's first exception; for Python, which writes
 * the innermost call last and its causes first, the last frame of the last exception) is the line it is marked on.
 * The workspace's side is a function from a deployed path to a workspace-relative path (undefined: not in the
 * workspace), so a mark never lies outside the workspace folder. Groups landing on one line are summed.
 */
import type { ExceptionGroup } from './exceptionAggregate';
import { parseStackTrace, type Frame, type ParsedTrace } from './stackTrace';

export interface SiteFrame {
  /** Workspace-relative path and 1-based line. */
  path: string;
  line: number;
  frame: Frame;
}

export interface ExceptionSite {
  path: string;
  line: number;
  /** Occurrences over the range: all, on span events, in logs. */
  count: number;
  spanCount: number;
  logCount: number;
  first: number;
  last: number;
  /** The groups marked here, most occurrences first. */
  groups: ExceptionGroup[];
}

/** The frames of the exception thrown, innermost call first. */
function thrownFrames(trace: ParsedTrace): Frame[] {
  const frames = trace.frames;
  if (frames.length === 0) return [];
  if (frames[0]?.runtime === 'python') {
    const last = Math.max(...frames.map((f) => f.exception));
    return frames.filter((f) => f.exception === last).reverse();
  }
  return frames.filter((f) => f.exception === 0);
}

/** The top frame of the thrown exception whose file maps into the workspace, with a line. */
export function topWorkspaceFrame(
  trace: ParsedTrace,
  toWorkspace: (file: string) => string | undefined,
): SiteFrame | undefined {
  for (const frame of thrownFrames(trace)) {
    if (!frame.file || !frame.line) continue;
    const path = toWorkspace(frame.file);
    if (path !== undefined) return { path, line: frame.line, frame };
  }
  return undefined;
}

/** The groups by workspace file and line (files in no particular order; each file's sites by line). */
export function exceptionSites(
  groups: readonly ExceptionGroup[],
  toWorkspace: (file: string) => string | undefined,
): Map<string, ExceptionSite[]> {
  const memo = new Map<string, string | undefined>();
  const mapped = (file: string): string | undefined => {
    if (!memo.has(file)) memo.set(file, toWorkspace(file));
    return memo.get(file);
  };
  const byPlace = new Map<string, ExceptionSite>();
  for (const g of groups) {
    const top = topWorkspaceFrame(parseStackTrace(g.stacktrace), mapped);
    if (!top) continue;
    const key = `${top.line}:${top.path}`;
    let site = byPlace.get(key);
    if (!site) {
      site = {
        path: top.path,
        line: top.line,
        count: 0,
        spanCount: 0,
        logCount: 0,
        first: g.first,
        last: g.last,
        groups: [],
      };
      byPlace.set(key, site);
    }
    site.count += g.count;
    if (g.origin === 'log') site.logCount += g.count;
    else site.spanCount += g.count;
    site.first = Math.min(site.first, g.first);
    site.last = Math.max(site.last, g.last);
    site.groups.push(g);
  }
  const out = new Map<string, ExceptionSite[]>();
  for (const site of byPlace.values()) {
    site.groups.sort((a, b) => b.count - a.count);
    const list = out.get(site.path);
    if (list) list.push(site);
    else out.set(site.path, [site]);
  }
  for (const list of out.values()) list.sort((a, b) => a.line - b.line);
  return out;
}
