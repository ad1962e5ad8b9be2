/**
 * `npm run emulator`: starts the local API emulator and prints how to connect. `--flavor oss` serves a self-hosted
 * HyperDX External API v2 (Bearer personal API key) instead of the Cloud API, answering as the newest HyperDX;
 * `--hyperdx-older` answers as an older deployment (the OSS OpenAPI document's rules only).
 * Options: --port <n> (default 8787), --segment <name> (default observability), --no-rate-limit,
 * --rate-limit-header none|x-ratelimit-reset|retry-after, --empty, --alerts <n>, --extra-services <n>,
 * --future-fields (answer like a newer server), --page-cap <n> (paged lists return at most n items),
 * --source-get-by-id (serve GET …/sources/{id}, which the live Cloud has been seen not to serve),
 * --now <ISO 8601 time | ms since the epoch | start> (freeze the sample data's clock; by default it moves with now).
 */
import { startEmulator } from './server';
import type { EmulatorFlavor, EmulatorOptions, RateLimitHeaderMode } from './types';

function parseArgs(argv: string[]): EmulatorOptions {
  const opts: EmulatorOptions = { port: 8787 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--port':
        opts.port = Number(next());
        break;
      case '--segment':
        opts.segment = next();
        break;
      case '--no-rate-limit':
        opts.rateLimit = false;
        break;
      case '--rate-limit-header':
        opts.rateLimitHeader = next() as RateLimitHeaderMode;
        break;
      case '--empty':
        opts.data = 'empty';
        break;
      case '--alerts':
        opts.alertCount = Number(next());
        break;
      case '--extra-services':
        opts.extraServices = Number(next());
        break;
      case '--future-fields':
        opts.futureFields = true;
        break;
      case '--hyperdx-older':
        opts.hyperdxVersion = 'older';
        break;
      case '--flavor': {
        const flavor = next();
        if (flavor !== 'cloud' && flavor !== 'oss') throw new Error(`--flavor must be cloud or oss, not "${flavor}"`);
        opts.flavor = flavor as EmulatorFlavor;
        break;
      }
      case '--page-cap':
        opts.pageCap = Number(next());
        break;
      case '--source-get-by-id':
        opts.sourceGetById = true;
        break;
      case '--now': {
        const now = next();
        opts.now = now === 'start' ? 'start' : /^\d+$/.test(now) ? Number(now) : Date.parse(now);
        if (Number.isNaN(opts.now)) throw new Error(`--now must be an ISO 8601 time, ms since the epoch or start`);
        break;
      }
      default:
        throw new Error(`Unknown option ${String(arg)}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  const emulator = await startEmulator(parseArgs(process.argv.slice(2)));
  const lines =
    emulator.flavor === 'oss'
      ? [
          'Self-hosted HyperDX API (External API v2) emulator is running.',
          `  Base URL:        ${emulator.url}`,
          `  API key:         ${emulator.ossApiKey} (Authorization: Bearer <key>)`,
          `  ClickHouse HTTP: ${emulator.clickHouseHttpUrl} (user ${emulator.clickHouseUser}, password ${emulator.clickHousePassword})`,
          `  Control:         ${emulator.url}/__emulator/info (faults, requests, reset, response-issues)`,
          'Press Ctrl+C to stop.',
        ]
      : [
          'Observability API emulator is running.',
          `  Base URL:        ${emulator.url}`,
          `  Query host:      ${emulator.queryUrl}`,
          `  Key ID:          ${emulator.keyId}`,
          `  Key secret:      ${emulator.keySecret}`,
          `  Organization ID: ${emulator.organizationId}`,
          `  Service IDs:     ${emulator.serviceIds.join(', ')}`,
          `  Control:         ${emulator.url}/__emulator/info (faults, requests, reset, response-issues)`,
          ...(emulator.futureFields || emulator.pageCap > 0
            ? [
                `  Newer server:    future fields ${emulator.futureFields ? 'on' : 'off'}, page cap ${emulator.pageCap || 'none'}`,
              ]
            : []),
          'Press Ctrl+C to stop.',
        ];
  process.stdout.write(lines.join('\n') + '\n');
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
