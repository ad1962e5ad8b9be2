/** Public surface of the query-endpoint client (no `vscode` dependency). */
export * from './client';
export * from './sql';
export { sendStreaming, type StreamingRequest, type StreamingResponse } from './stream';
