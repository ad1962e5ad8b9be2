/** The self-hosted (HyperDX External API v2) flavor of the API client. No `vscode` dependency. */
export { ossFlavor, OSS_API_PREFIX, UnsupportedOnSelfHostedError, isPlausibleApiKey } from './flavor';
