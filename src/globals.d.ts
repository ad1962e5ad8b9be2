/** Replaced at bundle time by esbuild (see esbuild.mjs). */
declare const EXTENSION_VERSION: string;
declare const EXTENSION_NAME: string;
