// `npm run demo`: the product working end to end on the embedded default. Starts the key-value REST
// server (memory engine) and the demo Strapi app with the plugin, sends bursts of requests, prints
// what was allowed and refused, then keeps serving (Ctrl-C stops) or exits with `--once`.
import { Redis } from '@upstash/redis';
import type { AddressInfo } from 'node:net';
import { startKvRestServer } from '../mock';
import { bootStrapi } from './boot-strapi';
import { DEMO_SCENARIOS, DEMO_STRATEGIES, type DemoScenario } from './strategies';

interface BurstResult {
  readonly allowed: number;
  readonly refused: number;
  readonly remaining: string;
  readonly reset: string;
}

async function burst(baseUrl: string, scenario: DemoScenario): Promise<BurstResult> {
  let allowed = 0;
  let refused = 0;
  let last: Response | undefined;
  for (let i = 0; i < scenario.burst; i++) {
    last = await fetch(`${baseUrl}${scenario.path}`, { method: scenario.method, headers: scenario.headers });
    await last.arrayBuffer();
    if (last.status === 429) refused++;
    else if (last.ok) allowed++;
    else throw new Error(`${scenario.method} ${scenario.path} answered ${last.status}`);
  }
  // `RateLimit: limit=5, remaining=0, reset=9` (the IETF draft header the plugin sends by default).
  const fields = Object.fromEntries((last?.headers.get('ratelimit') ?? '').split(',').map((field) => field.trim().split('=')));
  return { allowed, refused, remaining: fields.remaining ?? '?', reset: fields.reset ?? '?' };
}

function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: readonly string[]): string => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(line(rows[0]));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

async function main(once: boolean): Promise<void> {
  const kv = await startKvRestServer();
  const config = { url: kv.url, token: kv.token, strategy: DEMO_STRATEGIES };
  const { strapi, close } = await bootStrapi({ config, logLevel: 'error' });
  await new Promise<void>((resolve) => strapi.server.httpServer.listen(once ? 0 : 1337, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(strapi.server.httpServer.address() as AddressInfo).port}`;

  console.log(`\nStrapi with the ratelimit plugin at ${baseUrl}, key-value REST server at ${kv.url}\n`);
  const rows: string[][] = [['strategy', 'sent', 'allowed', 'refused (429)', 'remaining', 'reset in (s)']];
  for (const scenario of DEMO_SCENARIOS) {
    const result = await burst(baseUrl, scenario);
    rows.push([scenario.title, String(scenario.burst), String(result.allowed), String(result.refused), result.remaining, result.reset]);
  }
  printTable(rows);

  const redis = new Redis({ url: kv.url, token: kv.token });
  const keys = (await redis.keys('@cms:*')).sort();
  console.log(`\nStore keys (${keys.length}):`);
  for (const key of keys) console.log(`  ${key}`);

  const stop = async (): Promise<void> => {
    await close();
    await kv.close();
  };
  if (once) {
    await stop();
    // Strapi leaves timers of its own behind after destroy(); the demo is done, so leave now.
    process.exit(0);
  }
  console.log(`\nStill serving: try  curl -i ${baseUrl}/api/ping   (Ctrl-C stops)`);
  console.log(`Key-value store: ${kv.url} with token ${kv.token}`);
  const onSignal = (): void => {
    void stop().then(() => process.exit(0));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

main(process.argv.includes('--once')).catch((failure: unknown) => {
  console.error(failure instanceof Error ? failure.message : failure);
  process.exit(1);
});
