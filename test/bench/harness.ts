/**
 * What the bench parts share: median/p95 statistics, the query endpoint set up for a connection, and the same-run
 * reference every time is compared with (a bare undici POST of the same statement to the emulator's query host and
 * the parse of its lines).
 */
import * as vscode from 'vscode';
import { request, type Agent } from 'undici';

export interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  runs: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  const m = s.length / 2;
  const median = s.length % 2 ? (s[Math.floor(m)] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    median: r(median),
    p95: r(at(0.95)),
    min: r(s[0] as number),
    max: r(s[s.length - 1] as number),
    runs: s.length,
  };
}

export interface QueryEndpointConfig {
  queryUrl: string;
  keyId: string;
  keySecret: string;
  serviceId: string;
  connectionId: string;
}

/** Points the connection at the emulator's query host and lets its key use the service's query endpoint. */
export async function useQueryEndpoint(cfg: QueryEndpointConfig, requestsPerWindow: number | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('observability')
    .update('rateLimit.requestsPerWindow', requestsPerWindow, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand('observability.setQueryHost', {
    connectionId: cfg.connectionId,
    queryUrl: cfg.queryUrl,
  });
  const enabled = await vscode.commands.executeCommand<{ enabled: boolean; error?: string }>(
    'observability.enableQueryKey',
    { connectionId: cfg.connectionId, serviceId: cfg.serviceId, confirm: true },
  );
  if (!enabled?.enabled) throw new Error(`could not enable the key on the query endpoint: ${enabled?.error}`);
}

/** The reference: bare undici POST of a statement, whole body as text, one JSON.parse per line; returns the data rows. */
export function rawQuery(cfg: QueryEndpointConfig, agent: Agent): (sql: string) => Promise<number> {
  const authorization = `Basic ${Buffer.from(`${cfg.keyId}:${cfg.keySecret}`).toString('base64')}`;
  const url = `${cfg.queryUrl}/service/${cfg.serviceId}/run?format=JSONCompactEachRowWithNamesAndTypes`;
  return async (sql) => {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ sql }),
    });
    if (res.statusCode !== 200) throw new Error(`raw request: HTTP ${res.statusCode} ${await res.body.text()}`);
    const text = await res.body.text();
    let rows = 0;
    for (const line of text.split('\n')) {
      if (line) {
        JSON.parse(line);
        rows++;
      }
    }
    return rows - 2;
  };
}

/**
 * Now on the machine's one clock (epoch milliseconds), the clock the extension host and its webviews share: a stamp
 * taken in a webview (`performance.timeOrigin + performance.now()` there) compares with this one.
 */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Statistics of each stage of several runs, in milliseconds from each run's start (`from`, epoch milliseconds); a
 * stage missing from a run is left out of its samples. Keys in the order of the first run's stages.
 */
export function stageStats(
  runs: { from: number; stages: Record<string, number | undefined> }[],
): Record<string, Stats> {
  const samples = new Map<string, number[]>();
  for (const { from, stages } of runs) {
    for (const [k, at] of Object.entries(stages)) {
      if (at === undefined || !Number.isFinite(at)) continue;
      samples.set(k, [...(samples.get(k) ?? []), at - from]);
    }
  }
  return Object.fromEntries([...samples].map(([k, s]) => [k, stats(s)]));
}
