#!/usr/bin/env node
// `npx strapi-plugin-ratelimit mock`: starts the local servers and prints how to reach them,
// first as one JSON line for scripts, then for people. Ctrl-C (or SIGTERM) stops them cleanly.
import { MOCK_OPTIONS, mockUsage, parseMockOptions, UsageError } from './cli/options';
import { startKvRestServer } from './kv-rest/server';

const DEFAULT_KV_PORT = 8079;

async function runMock(argv: readonly string[]): Promise<void> {
  const options = parseMockOptions(argv, process.env);
  if (options.help) {
    console.log(mockUsage());
    return;
  }
  const kv = await startKvRestServer({ ...options, port: options.kvPort ?? DEFAULT_KV_PORT });
  console.log(JSON.stringify({ kv: { url: kv.url, token: kv.token, readonlyToken: kv.readonlyToken } }));
  console.log(`Key-value REST server (${kv.engine.name} engine) at ${kv.url}`);
  console.log(`  Standard token:  ${kv.token}`);
  console.log(`  Read Only token: ${kv.readonlyToken}`);
  console.log(`  Try: curl -H "Authorization: Bearer ${kv.token}" ${kv.url}/set/hello/world`);
  console.log('Press Ctrl-C to stop.');
  const stop = (): void => {
    void kv.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== 'mock') {
    console.error(`Usage: strapi-plugin-ratelimit mock [options]   (see --help)${command ? `\nUnknown command "${command}".` : ''}`);
    process.exitCode = 2;
    return;
  }
  await runMock(rest);
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  if (failure instanceof UsageError) {
    console.error(`${failure.message}\n\n${mockUsage()}`);
    process.exitCode = 2;
  } else {
    const code = (failure as NodeJS.ErrnoException).code;
    console.error(code === 'EADDRINUSE' ? `Port already in use: choose another with --${MOCK_OPTIONS.kvPort.flag}` : String(failure instanceof Error ? failure.message : failure));
    process.exitCode = 1;
  }
});
