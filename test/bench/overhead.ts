/**
 * Client overhead vs a bare undici request, outside VS Code (quick iteration; the figure of record comes from
 * `scripts/bench.mjs --only overhead`, which runs the same comparison in the extension host).
 *
 *   npx tsc -p tsconfig.json && node out/test/bench/overhead.js [batches=15] [perBatch=100] [path=sources|alerts]
 *
 * Prints the median per-request time of each path and the median ratio of the batches.
 */
import { Agent, request } from 'undici';
import { ObservabilityClient, RateLimiter } from '../../src/api';
import { startEmulator } from '../emulator';

async function main(): Promise<void> {
  const batches = Number(process.argv[2] ?? 15);
  const perBatch = Number(process.argv[3] ?? 100);
  const which = process.argv[4] === 'alerts' ? 'alerts' : 'sources';
  const emu = await startEmulator({ rateLimit: false, alertCount: which === 'alerts' ? 200 : 0 });
  const serviceId = emu.serviceIds[0] as string;
  const client = new ObservabilityClient({
    connection: { baseUrl: emu.url, organizationId: emu.organizationId, serviceIds: [serviceId], keyId: emu.keyId, pathSegment: 'observability' },
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
  const viaClient = which === 'alerts' ? async () => void (await client.listAlerts(serviceId)) : async () => void (await client.listSources(serviceId));
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
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length / 2;
    return s.length % 2 ? s[Math.floor(m)]! : (s[m - 1]! + s[m]!) / 2;
  };
  console.log(
    JSON.stringify({ path: which, batches, perBatch, bareMs: +median(bareMs).toFixed(3), clientMs: +median(clientMs).toFixed(3), ratio: +median(ratios).toFixed(3) }),
  );
  await agent.close();
  await client.close();
  await emu.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
