/**
 * The small part of undici the client uses, imported module by module (see
 * undici-modules.d.ts). Everything else in src/api imports undici from here.
 */
import type { Dispatcher as DispatcherType } from 'undici';
import DispatcherImpl from 'undici/lib/dispatcher/dispatcher.js';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import PoolImpl from 'undici/lib/dispatcher/pool.js';
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js';
import EnvHttpProxyAgentImpl from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import requestImpl from 'undici/lib/api/api-request.js';
import * as api from 'undici/lib/api/index.js';

export type { Dispatcher } from 'undici';
export type AgentOptions = ConstructorParameters<typeof AgentImpl>[0];
export type ProxyAgentOptions = Exclude<ConstructorParameters<typeof ProxyAgentImpl>[0], string>;
export type EnvHttpProxyAgentOptions = NonNullable<ConstructorParameters<typeof EnvHttpProxyAgentImpl>[0]>;
export type RequestOptions = DispatcherType.RequestOptions;
export type ResponseData = DispatcherType.ResponseData;

// The package entry installs request/connect/… on every dispatcher; ProxyAgent relies on
// `client.connect()` to open CONNECT tunnels, so do the same here.
for (const [name, fn] of Object.entries(api)) {
  const proto = DispatcherImpl.prototype as unknown as Record<string, unknown>;
  if (typeof fn === 'function' && typeof proto[name] !== 'function') proto[name] = fn;
}

export const DispatcherBase = DispatcherImpl;
export const Agent = AgentImpl;
export const Pool = PoolImpl;
export const ProxyAgent = ProxyAgentImpl;
export const EnvHttpProxyAgent = EnvHttpProxyAgentImpl;
export type Agent = AgentImpl;
export type Pool = PoolImpl;
export type ProxyAgent = ProxyAgentImpl;
export type EnvHttpProxyAgent = EnvHttpProxyAgentImpl;

/** `dispatcher.request(options)` without relying on the package entry having patched the prototype. */
export function request(dispatcher: DispatcherType, options: RequestOptions): Promise<ResponseData> {
  return requestImpl.call(dispatcher, options);
}
