#!/usr/bin/env node
// `npx strapi-plugin-ratelimit kv` starts the key-value REST server alone (the plugin's store, so a
// plugin user needs no other port free); `mock` starts it with the workflow trigger server. Each
// prints how to reach what it started, first as one JSON line for scripts, then for people.
// Ctrl-C (or SIGTERM) stops them cleanly.
import { KV_OPTIONS, kvUsage, MOCK_OPTIONS, mockUsage, parseKvOptions, parseMockOptions, UsageError } from './cli/options';
import { packageVersion } from './cli/package-version';
import { startKvRestServer, type KvRestServer } from './kv-rest/server';
import { startWorkflowServer } from './workflow/server';

/** A taken port becomes a line that names the flag (and variable) choosing another. */
function explainBusyPort(failure: unknown, option: { readonly flag: string; readonly env: string }): unknown {
  const { code, port } = failure as NodeJS.ErrnoException & { port?: number };
  if (code !== 'EADDRINUSE') return failure;
  return new Error(`Port ${port} is already in use: choose another with --${option.flag} or ${option.env} (0 picks any free port)`);
}

const kvLines = (kv: KvRestServer): string[] => [
  `Key-value REST server (${kv.engine.name} engine) at ${kv.url}`,
  `  Standard token:  ${kv.token}`,
  `  Read Only token: ${kv.readonlyToken}`,
  `  Try: curl -H "Authorization: Bearer ${kv.token}" ${kv.url}/set/hello/world`,
];

const kvReached = (kv: KvRestServer) => ({ url: kv.url, token: kv.token, readonlyToken: kv.readonlyToken });

function stopOnSignal(servers: readonly { close(): Promise<void> }[]): void {
  console.log('Press Ctrl-C to stop.');
  const stop = (): void => {
    void Promise.all(servers.map((server) => server.close())).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function runKv(argv: readonly string[]): Promise<void> {
  const options = parseKvOptions(argv, process.env);
  if (options.help) return void console.log(kvUsage());
  const kv = await startKvRestServer({ ...options, port: options.port ?? KV_OPTIONS.port.default }).catch((failure: unknown) => {
    throw explainBusyPort(failure, KV_OPTIONS.port);
  });
  console.log(JSON.stringify({ kv: kvReached(kv) }));
  for (const line of kvLines(kv)) console.log(line);
  stopOnSignal([kv]);
}

async function runMock(argv: readonly string[]): Promise<void> {
  const options = parseMockOptions(argv, process.env);
  if (options.help) return void console.log(mockUsage());
  const kv = await startKvRestServer({ ...options, port: options.kvPort ?? MOCK_OPTIONS.kvPort.default }).catch((failure: unknown) => {
    throw explainBusyPort(failure, MOCK_OPTIONS.kvPort);
  });
  const workflow = await startWorkflowServer({
    host: options.host,
    port: options.workflowPort ?? MOCK_OPTIONS.workflowPort.default,
    token: options.workflowToken,
    prefix: options.prefix,
    currentSigningKey: options.signingKey,
    nextSigningKey: options.nextSigningKey,
    timeScale: options.retryTimeScale,
    maxBodyBytes: options.workflowMaxBodyBytes,
    maxActiveRuns: options.workflowMaxActiveRuns,
    maxPendingBodyBytes: options.workflowMaxPendingBytes,
    maxConcurrentDeliveries: options.workflowMaxDeliveries,
    deliveryTimeoutMs: options.workflowDeliveryTimeoutMs,
    keptFinishedRuns: options.workflowKeptRuns,
    keptAnswerBytes: options.workflowKeptAnswerBytes,
    headersTimeoutMs: options.workflowHeadersTimeoutMs,
    requestTimeoutMs: options.workflowRequestTimeoutMs,
    maxConnections: options.workflowMaxConnections,
    lingerTimeoutMs: options.workflowLingerTimeoutMs,
    maxLingerBytes: options.workflowMaxLingerBytes,
    statePath: options.workflowState,
  }).catch(async (failure: unknown) => {
    await kv.close();
    throw explainBusyPort(failure, MOCK_OPTIONS.workflowPort);
  });
  const { url, token, currentSigningKey, nextSigningKey } = workflow;
  console.log(JSON.stringify({ kv: kvReached(kv), workflow: { url, token, currentSigningKey, nextSigningKey } }));
  for (const line of kvLines(kv)) console.log(line);
  console.log(`Workflow trigger server at ${url} (token ${token}, signing keys ${currentSigningKey} / ${nextSigningKey})`);
  console.log(`  Try: curl -X POST -H "Authorization: Bearer ${token}" -d '{"hello":1}' ${url}/v2/trigger/http://127.0.0.1:3000/api/workflow`);
  stopOnSignal([kv, workflow]);
}

const COMMANDS = { kv: { run: runKv, usage: kvUsage }, mock: { run: runMock, usage: mockUsage } } as const;

const USAGE = [
  'Usage: strapi-plugin-ratelimit <command> [options]',
  '',
  'Commands:',
  '  kv         start the local key-value REST server (the store the plugin needs)',
  '  mock       start the local key-value REST server and the workflow trigger server',
  '  help       show this help (also --help, -h, or no command)',
  '  version    print the package version (also --version, -v)',
  '',
  '`strapi-plugin-ratelimit kv --help` (or `mock --help`) lists the options of that command.',
].join('\n');

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return void console.log(USAGE);
  if (command === 'version' || command === '--version' || command === '-v') return void console.log(packageVersion());
  if (command !== 'kv' && command !== 'mock') {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { run, usage } = COMMANDS[command];
  try {
    await run(rest);
  } catch (failure) {
    if (!(failure instanceof UsageError)) throw failure;
    console.error(`${failure.message}\n\n${usage()}`);
    process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  console.error(failure instanceof Error ? failure.message : String(failure));
  process.exitCode = 1;
});
