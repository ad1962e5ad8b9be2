/**
 * Identifiers shared by the thin entry (src/lazy.ts, src/extension.ts) and the features. Imports nothing, so the
 * activation bundle can include it for a few bytes.
 */

/** The explorer view. */
export const VIEW_ID = 'observability.explorer';
/** globalState key of the saved connections. */
export const CONNECTIONS_STATE_KEY = 'observability.connections';
/** workspaceState key of the code insights' picks (workspace folder URI → connection, service and trace source). */
export const CODE_INSIGHTS_PICKS_KEY = 'observability.codeInsights.picks';
/** Context key of the command palette's `when` clauses: at least one connection is saved. */
export const CONTEXT_HAS_CONNECTIONS = 'observability.hasConnections';
/** Every URI scheme the extension serves starts with this (`observability`, `observability-server`, …). */
export const SCHEME_PREFIX = 'observability';
/** The file system of the editable resource documents (src/jsonDocuments/resourcePaths.ts). */
export const RESOURCE_SCHEME = 'observability';
/** How long the firing-alerts status item waits before its first background refresh (STATUS_REFRESH_MINUTES). */
export const STATUS_FIRST_REFRESH_MS = 5 * 60_000;
/** View types of the tile preview and alert backtest panels (restored after a reload by their serializers). */
export const PREVIEW_VIEW_TYPES = { preview: 'observability.preview', backtest: 'observability.backtest' } as const;
/** View type of the trace panel (restored after a reload by its serializer). */
export const TRACE_VIEW_TYPE = 'observability.trace';
/** View type of the search panel (restored after a reload by its serializer). */
export const SEARCH_VIEW_TYPE = 'observability.search';
