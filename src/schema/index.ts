/** Schemas and types of the observability and cloud APIs (zod is the single source of types). */
export * from './ids';
export * from './aggregation';
export * from './envelope';
export * from './alert';
export * from './dashboard';
export * from './source';
export * from './webhook';
export * from './savedSearch';
export * from './role';
export * from './queryEndpoint';
export * from './cloud';
export * from './knownKeys';
export * from './serviceTarget';
export * from './serverRules';
export { lazySchema } from './lazySchema';
