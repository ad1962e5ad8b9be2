/**
 * Client overhead vs a bare undici request, outside VS Code (quick iteration; the figure of record comes from
 * `scripts/bench.mjs --only overhead`, which runs the same comparison in the extension host).
 *
 *   npx tsc -p tsconfig.json && node out/test/bench/overhead.js [batches=15] [perBatch=100] [path=sources|alerts]
 *   node out/test/bench/overhead.js cpu [items=4]
 *
 * Prints the median per-request time of each path and the median ratio of the batches. `cpu` mode takes the network
 * out (undici's MockAgent answers both paths in-process) and prints the CPU time per request of each path: on a busy
 * machine the wall-clock ratio is noise, the client's own CPU cost is not.
 */
import { Agent, MockAgent, request } from 'undici';
import { ObservabilityClient, RateLimiter } from '../../src/api';
import { startEmulator } from '../emulator';

async function cpuMode(items: number): Promise<void> {
  const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
  const SVC = '0b2d7e4f-1a3c-4b5d-8e6f-7a9b0c1d2e3f';
  const origin = 'http://127.0.0.1:9';
  const result = Array.from({ length: items }, (_, i) => ({
    id: `65f5e4a3b9e77c001a78${1000 + i}`,
    name: `Logs ${i}`,
    kind: 'log',
    connection: '65f5e4a3b9e77c001a780000',
    from: { databaseName: 'default', tableName: 'otel_logs' },
    timestampValueExpression: 'TimestampTime',
    defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
    serviceNameExpression: 'ServiceName',
    bodyExpression: 'Body',
  }));
  const payload = JSON.stringify({ status: 200, requestId: '3f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14', result });
  const agent = new MockAgent({ connections: 1 });
  agent.disableNetConnect();
  agent
    .get(origin)
    .intercept({ path: () => true, method: 'GET' })
    .reply(200, payload, { headers: { 'content-type': 'application/json' } })
    .persist();
  const client = new ObservabilityClient({
    connection: { baseUrl: origin, organizationId: ORG, serviceIds: [SVC], keyId: 'key', pathSegment: 'observability' },
    getSecret: () => 'secret-value-123',
    dispatcher: agent,
    limiter: new RateLimiter({ requests: 1e9, windowMs: 1000, marginMs: 0 }),
  });
  const url = `${origin}/v1/organizations/${ORG}/services/${SVC}/observability/sources`;
  const bare = async () => {
    const res = await request(url, {
      dispatcher: agent,
      headers: { authorization: 'Basic x', accept: 'application/json' },
    });
    await res.body.json();
  };
  const viaClient = async () => void (await client.listSources(SVC));
  const n = 3000;
  for (let i = 0; i < n; i++) {
    await bare();
    await viaClient();
  }
  const cpu = { bare: [] as number[], client: [] as number[] };
  for (let r = 0; r < 10; r++) {
    const order: ['bare' | 'client', () => Promise<void>][] =
      r % 2
        ? [
            ['bare', bare],
            ['client', viaClient],
          ]
        : [
            ['client', viaClient],
            ['bare', bare],
          ];
    for (const [name, fn] of order) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await fn();
      const c = process.cpuUsage(c0);
      cpu[name].push((c.user + c.system) / n);
    }
  }
  const b = median(cpu.bare);
  const c = median(cpu.client);
  console.log(
    JSON.stringify({
      mode: 'cpu',
      items,
      bareCpuUs: +b.toFixed(1),
      clientCpuUs: +c.toFixed(1),
      overheadUs: +(c - b).toFixed(1),
    }),
  );
  await agent.close();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length % 2 ? s[Math.floor(m)]! : (s[m - 1]! + s[m]!) / 2;
}

async function main(): Promise<void> {
  if (process.argv[2] === 'cpu') return cpuMode(Number(process.argv[3] ?? 4));
  const batches = Number(process.argv[2] ?? 15);
  const perBatch = Number(process.argv[3] ?? 100);
  const which = process.argv[4] === 'alerts' ? 'alerts' : 'sources';
  const emu = await startEmulator({ rateLimit: false, alertCount: which === 'alerts' ? 200 : 0 });
  const serviceId = emu.serviceIds[0] as string;
  const client = new ObservabilityClient({
    connection: {
      baseUrl: emu.url,
      organizationId: emu.organizationId,
      serviceIds: [serviceId],
      keyId: emu.keyId,
      pathSegment: 'observability',
    },
    getSecret: () => emu.keySecret,
    limiter: new RateLimiter({ requests: 1_000_000, windowMs: 1000, marginMs: 0 }),
  });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const path = `/v1/organizations/${emu.organizationId}/services/${serviceId}/observability/${which}`;
  const url = `${emu.url}${path}`;
  const authorization = `Basic ${Buffer.from(`${emu.keyId}:${emu.keySecret}`).toString('base64')}`;
  const bare = async () => {
    const res = await request(url, { dispatcher: agent, headers: { authorization, accept: 'application/json' } });
    if (res.statusCode !== 200) throw new Error(`bare request: HTTP ${res.statusCode}`);
    await res.body.json();
  };
  const viaClient =
    which === 'alerts'
      ? async () => void (await client.listAlerts(serviceId))
      : async () => void (await client.listSources(serviceId));
  const batch = async (n: number) => {
    let bareTotal = 0;
    let clientTotal = 0;
    for (let i = 0; i < n; i++) {
      const order = i % 2 === 0 ? [bare, viaClient] : [viaClient, bare];
      for (const fn of order) {
        const t = performance.now();
        await fn();
        const d = performance.now() - t;
        if (fn === bare) bareTotal += d;
        else clientTotal += d;
      }
    }
    return { bare: bareTotal / n, client: clientTotal / n };
  };
  await batch(200);
  const ratios: number[] = [];
  const bareMs: number[] = [];
  const clientMs: number[] = [];
  for (let b = 0; b < batches; b++) {
    const r = await batch(perBatch);
    ratios.push(r.client / r.bare);
    bareMs.push(r.bare);
    clientMs.push(r.client);
  }
  console.log(
    JSON.stringify({
      path: which,
      batches,
      perBatch,
      bareMs: +median(bareMs).toFixed(3),
      clientMs: +median(clientMs).toFixed(3),
      ratio: +median(ratios).toFixed(3),
    }),
  );
  await agent.close();
  await client.close();
  await emu.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
