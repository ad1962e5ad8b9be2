/** The log source of a pick's trace source: the one its `logSourceId` names, else the service's only log source. */

export interface SourceRef {
  id?: unknown;
  kind?: unknown;
  logSourceId?: unknown;
}

export function logSourceOf<S extends SourceRef>(traces: S, sources: readonly S[]): S | undefined {
  const linked = typeof traces.logSourceId === 'string' ? sources.find((s) => s.id === traces.logSourceId) : undefined;
  if (linked && linked.kind === 'log') return linked;
  const logs = sources.filter((s) => s.kind === 'log');
  return logs.length === 1 ? logs[0] : undefined;
}
