/** Style sheets imported for their side effect; esbuild writes them to dist/preview.css. */
declare module '*.css';
