/**
 * Types for the undici modules imported by path. undici has no `exports` map,
 * so its files can be required one by one; importing them instead of the
 * package entry keeps fetch, WebSocket, caching and the embedded WebAssembly
 * parsers out of the extension bundle. The types come from undici's own
 * declarations.
 */
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}
declare module 'undici/lib/api/api-request.js' {
  import { Dispatcher } from 'undici';
  /** `Dispatcher.prototype.request`, callable on any dispatcher with `.call`. */
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}
declare module 'undici/lib/api/index.js' {
  import { Dispatcher } from 'undici';
  /** The request/stream/pipeline/upgrade/connect methods the package entry installs on Dispatcher.prototype. */
  const api: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect'>;
  export = api;
}
