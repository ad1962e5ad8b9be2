/**
 * A lens's figures over time, fetched only when the user asks for them (one bounded statement, through the source
 * access: the key's one rate budget) and kept for the aggregate's range, so asking again costs nothing: calls and
 * errors per time bucket, the slowest and latest failing spans, and the searches of those spans.
 */
import { codeDetailSql, codeSearchCondition, failingCondition, readDetail, type CodeDetail } from '../codeModel';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import type { FiguresArg } from './lenses';
import type { SourceAccess } from './sourceAccess';

/** What `observability.searchEvents` takes to search the spans. */
export interface SpanSearch {
  connectionId: string;
  serviceId: string;
  sourceId: string;
  condition: string;
  language: 'sql';
  range: { from: number; to: number };
}

export interface DetailOutcome {
  ok: boolean;
  error?: string;
  sql?: string;
  detail?: CodeDetail;
  search?: { all: SpanSearch; failing: SpanSearch };
}

const KEPT = 50;

export class Details {
  private readonly kept = new Map<string, Promise<DetailOutcome>>();
  /** Statements sent so far. */
  statements = 0;

  constructor(
    private readonly access: SourceAccess,
    private readonly log: Logger,
  ) {}

  /** The figures over time of a lens: the kept ones, else fetched now. */
  of(arg: FiguresArg): Promise<DetailOutcome> {
    const groups = arg.figures.groups.map((g) => ({ file: g.file, function: g.function, namespace: g.namespace }));
    const key = JSON.stringify([arg.connectionId, arg.serviceId, arg.sourceId, arg.bounds, groups]);
    let kept = this.kept.get(key);
    if (!kept) {
      kept = this.fetch(arg, groups);
      this.kept.set(key, kept);
      void kept.then((o) => !o.ok && this.kept.delete(key));
      for (const k of this.kept.keys()) {
        if (this.kept.size <= KEPT) break;
        this.kept.delete(k);
      }
    }
    return kept;
  }

  private async fetch(arg: FiguresArg, groups: { file: string; function: string; namespace: string }[]) {
    const pick = {
      connectionId: arg.connectionId,
      serviceId: arg.serviceId,
      sourceId: arg.sourceId,
      serviceName: arg.serviceName,
      sourceName: arg.sourceName,
    };
    try {
      const source = await this.access.sourceOf(pick);
      const stmt = codeDetailSql(source, { range: arg.bounds, groups });
      if (!stmt.ok) throw new Error(stmt.reason);
      this.statements++;
      const detail = readDetail(await this.access.rows(pick, stmt.sql, stmt.maxRows), arg.bounds, stmt.stepSeconds);
      const condition = codeSearchCondition(source, groups) ?? '';
      const scope = { connectionId: arg.connectionId, serviceId: arg.serviceId, sourceId: arg.sourceId };
      const search = (c: string): SpanSearch => ({ ...scope, condition: c, language: 'sql', range: arg.bounds });
      const failing = failingCondition(source);
      return {
        ok: true,
        sql: stmt.sql,
        detail,
        search: { all: search(condition), failing: search(failing ? `${condition} AND ${failing}` : condition) },
      };
    } catch (e) {
      const error = errorMessage(e);
      this.log.warn(`code insights: the figures over time of ${arg.figures.definition.name} failed: ${error}`);
      return { ok: false, error };
    }
  }
}
