/**
 * Production at the code, without `vscode`: stack traces → frames, deployed paths → workspace files, span code
 * attributes of both generations, a plain definition scan and span → definition matching, logger literals → log-body
 * patterns, and the two statements that fetch the figures (one per source and range).
 */
export { parseStackTrace, MAX_FRAMES, MAX_TRACE_CHARS, type Frame, type ParsedTrace, type Runtime } from './stackTrace';
export { frameLines, MAX_FRAME_LINES, type FrameLine, type StackLink } from './stackLinks';
export { indexWorkspace, mapPath, type PathMatch, type PrefixMapping, type WorkspaceIndex } from './pathMapping';
export { readCodeAttributes, splitQualified, containerOf, ATTR, type CodeLocation } from './codeAttributes';
export { languageOf, scanDefinitions, type Definition, type Language, type ScanResult } from './definitions';
export { matchDefinition, type SymbolMatch } from './match';
export { readException, spanExceptions, type RecordedException } from './exceptions';
export { findLogLiterals, fixedParts, likePattern, type LogLiteral } from './logLiterals';
export {
  codeAggregateSql,
  readAggregate,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type AggregateOptions,
  type AggregateStatement,
  type CodeAggregate,
  type CodeFigures,
  type QuantileUsed,
  type TraceSourceLike,
} from './aggregate';
export { logCountsSql, readLogCounts, MAX_PATTERNS, type LogCountsStatement, type LogSourceLike } from './logCounts';
export {
  bucketSeconds,
  codeDetailSql,
  codeSearchCondition,
  failingCondition,
  EXAMPLES,
  MAX_BUCKETS,
  type CodeGroup,
} from './detail';
export { readDetail, type CodeDetail, type DetailBucket, type SpanExample } from './detailRead';
export {
  exceptionAggregateSql,
  readExceptionAggregate,
  DEFAULT_EXCEPTION_LIMIT,
  type ExceptionAggregate,
  type ExceptionGroup,
  type ExceptionStatement,
} from './exceptionAggregate';
export { exceptionSites, topWorkspaceFrame, type ExceptionSite, type SiteFrame } from './exceptionSites';
export { logSourceOf, type SourceRef } from './logSource';
