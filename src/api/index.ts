/** Public surface of the API client (no `vscode` dependency). */
export {
  ObservabilityClient,
  type ObservabilityApi,
  DEFAULT_USER_AGENT,
  DEFAULT_PAGE_SIZE,
  DEFAULT_LIST_BOUNDS,
  type ApiResponse,
  type ListBounds,
  type ListResponse,
  type SkippedListItem,
  type ClientTimeouts,
  type HttpMethod,
  type ObservabilityClientOptions,
  type PageOptions,
  type RequestLogEntry,
  type RequestOptions,
  type RetryOptions,
} from './client';
export {
  DEFAULT_PATH_SEGMENT,
  LIVE_PATH_SEGMENT,
  connectionIssues,
  isLoopbackHost,
  plainHttpProblem,
  isResourceId,
  isUuid,
  validateConnection,
  type ConnectionConfig,
} from './connection';
export { ApiError, kindForStatus, type ApiErrorInit, type ApiErrorIssue, type ApiErrorKind } from './errors';
export { RateLimiter, limiterFor, DEFAULT_RATE_LIMIT, type Grant, type RateLimiterOptions } from './rateLimiter';
export { createDispatcher, describeProxyUrl, resolveProxy, type DispatcherOptions, type ProxyChoice } from './proxy';
export { redact } from './redact';
export {
  sanitizeServerText,
  cleanRequestId,
  escapeMarkdown,
  markdownCode,
  markdownText,
  MAX_SERVER_TEXT,
} from './sanitize';
export type { Dispatcher } from './undici';
export { RequestEngine, type CallSpec, type ListSpec, type RequestEngineOptions, type RetryPolicy } from './engine';
export { cloudFlavor } from './cloudFlavor';
export type {
  ApiCredential,
  ApiFlavor,
  ParsedError,
  ResourceKind,
  ResourceScope,
  Unwrapped,
  UnwrapExpect,
} from './flavor';
export { parseErrorBody, type ErrorBodyShape } from './errorBody';
