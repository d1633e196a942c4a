#!/usr/bin/env node
// `npx strapi-plugin-ratelimit mock`: starts both local servers and prints how to reach them,
// first as one JSON line for scripts, then for people. Ctrl-C (or SIGTERM) stops them cleanly.
import { MOCK_OPTIONS, mockUsage, parseMockOptions, UsageError } from './cli/options';
import { packageVersion } from './cli/package-version';
import { startKvRestServer } from './kv-rest/server';
import { startWorkflowServer } from './workflow/server';

/** A taken port becomes a line that names the flag (and variable) choosing another. */
function explainBusyPort(failure: unknown, option: { readonly flag: string; readonly env: string }): unknown {
  const { code, port } = failure as NodeJS.ErrnoException & { port?: number };
  if (code !== 'EADDRINUSE') return failure;
  return new Error(`Port ${port} is already in use: choose another with --${option.flag} or ${option.env} (0 picks any free port)`);
}

async function runMock(argv: readonly string[]): Promise<void> {
  const options = parseMockOptions(argv, process.env);
  if (options.help) {
    console.log(mockUsage());
    return;
  }
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
    statePath: options.workflowState,
  }).catch(async (failure: unknown) => {
    await kv.close();
    throw explainBusyPort(failure, MOCK_OPTIONS.workflowPort);
  });
  const { url, token, currentSigningKey, nextSigningKey } = workflow;
  console.log(JSON.stringify({ kv: { url: kv.url, token: kv.token, readonlyToken: kv.readonlyToken }, workflow: { url, token, currentSigningKey, nextSigningKey } }));
  console.log(`Key-value REST server (${kv.engine.name} engine) at ${kv.url}`);
  console.log(`  Standard token:  ${kv.token}`);
  console.log(`  Read Only token: ${kv.readonlyToken}`);
  console.log(`  Try: curl -H "Authorization: Bearer ${kv.token}" ${kv.url}/set/hello/world`);
  console.log(`Workflow trigger server at ${url} (token ${token}, signing keys ${currentSigningKey} / ${nextSigningKey})`);
  console.log(`  Try: curl -X POST -H "Authorization: Bearer ${token}" -d '{"hello":1}' ${url}/v2/trigger/http://127.0.0.1:3000/api/workflow`);
  console.log('Press Ctrl-C to stop.');
  const stop = (): void => {
    void Promise.all([kv.close(), workflow.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const USAGE = [
  'Usage: strapi-plugin-ratelimit <command> [options]',
  '',
  'Commands:',
  '  mock       start the local key-value REST server and the workflow trigger server',
  '  help       show this help (also --help, -h, or no command)',
  '  version    print the package version (also --version, -v)',
  '',
  '`strapi-plugin-ratelimit mock --help` lists the options of the mock command.',
].join('\n');

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return void console.log(USAGE);
  if (command === 'version' || command === '--version' || command === '-v') return void console.log(packageVersion());
  if (command !== 'mock') {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
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
    console.error(failure instanceof Error ? failure.message : String(failure));
    process.exitCode = 1;
  }
});
