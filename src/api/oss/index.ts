/** The self-hosted (HyperDX External API v2) flavor of the API client. No `vscode` dependency. */
export { ossFlavor, OSS_API_PREFIX, OSS_ERROR_SHAPE, UnsupportedOnSelfHostedError, isPlausibleApiKey } from './flavor';
export {
  SelfHostedClient,
  selfHostedConnectionIssues,
  ossAlertWriteSchema,
  teamSchema,
  teamMemberSchema,
  seriesRequestSchema,
  seriesPointSchema,
  searchRequestSchema,
  SERIES_AGG_FNS,
  SERIES_GRANULARITIES,
  MAX_SERIES_POINTS,
  MAX_SEARCH_ROWS,
  type SeriesGranularity,
  type SearchRequest,
  OSS_RATE_LIMIT,
  type SelfHostedClientOptions,
  type SelfHostedConnection,
  type SeriesPoint,
  type SeriesQuery,
  type SeriesRequest,
  type Team,
  type TeamMember,
} from './client';
export {
  SelfHostedServiceClient,
  SELF_HOSTED_ORGANIZATION_ID,
  SELF_HOSTED_SERVICE_ID,
  SELF_HOSTED_PATH_SEGMENT,
  unsupportedOnSelfHosted,
} from './adapter';
