// The `mock` command's options: flags win over environment variables, bad values are usage errors
// that name the flag and its variable.
import { mockUsage, parseMockOptions, UsageError } from '../../../mock/cli/options';
import { REDIS_ENGINE_DEFAULTS } from '../../../mock/kv-rest/redis/redis-engine';
import { KV_REST_DEFAULTS } from '../../../mock/kv-rest/server';
import { WORKFLOW_DEFAULTS } from '../../../mock/workflow/server';

describe('mock command options', () => {
  it('reads flags and environment variables, flags first', () => {
    const options = parseMockOptions(['--kv-port', '0', '--token', 'from-flag'], { MOCK_KV_TOKEN: 'from-env', MOCK_PREFIX: 'Svc', MOCK_DAILY_LIMIT: '10' });
    expect(options).toEqual({ kvPort: 0, token: 'from-flag', prefix: 'Svc', dailyLimit: 10, help: false });
  });

  it.each([
    [['--kv-port', '70000'], /--kv-port \(MOCK_KV_PORT\): "70000" is not a port number/],
    [['--daily-limit=-1'], /--daily-limit \(MOCK_DAILY_LIMIT\): "-1" is not a whole number/],
    [['--nope'], /Unknown option '--nope'/],
    [['--engine', 'postgres'], /--engine \(MOCK_ENGINE\): "postgres" is not memory or redis/],
    [['--retry-time-scale', '0'], /--retry-time-scale \(MOCK_RETRY_TIME_SCALE\): "0" is not a positive number/],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseMockOptions(argv, {})).toThrow(UsageError);
    expect(() => parseMockOptions(argv, {})).toThrow(message);
  });

  it('reads the TLS certificate and key files from flags or the environment (issue 36)', () => {
    expect(parseMockOptions(['--tls-cert-file', '/etc/kv/server.crt'], { MOCK_TLS_KEY_FILE: '/etc/kv/server.key' })).toEqual({ tlsCertFile: '/etc/kv/server.crt', tlsKeyFile: '/etc/kv/server.key', help: false });
  });

  it('refuses a bad value from the environment, naming the variable', () => {
    expect(() => parseMockOptions([], { MOCK_KV_PORT: 'abc' })).toThrow(/MOCK_KV_PORT/);
  });

  it('lists every option with its environment variable in the help text', () => {
    const usage = mockUsage();
    for (const name of ['--host', '--kv-port', '--token', '--readonly-token', '--prefix', '--max-request-bytes', '--daily-limit', '--engine', '--redis-url', '--redis-timeout-ms', '--max-response-bytes', '--max-stream-buffer-bytes', '--headers-timeout-ms', '--request-timeout-ms', '--max-connections', '--linger-timeout-ms', '--max-linger-bytes', '--tls-cert-file', '--tls-key-file', '--workflow-port', '--workflow-token', '--signing-key', '--next-signing-key', '--retry-time-scale', '--workflow-linger-timeout-ms', '--workflow-max-linger-bytes']) expect(usage).toContain(name);
    expect(usage).toContain('MOCK_KV_PORT');
  });

  it('shows in the help text the defaults the servers themselves use, so each is written once', () => {
    const helpLine = (flag: string) => mockUsage().split('\n').find((line) => line.startsWith(`  --${flag} `));
    const shown: [string, string | number][] = [
      ['host', KV_REST_DEFAULTS.host],
      ['prefix', KV_REST_DEFAULTS.prefix],
      ['max-request-bytes', KV_REST_DEFAULTS.maxRequestBytes],
      ['daily-limit', KV_REST_DEFAULTS.dailyLimit],
      ['max-response-bytes', KV_REST_DEFAULTS.maxResponseBytes],
      ['max-stream-buffer-bytes', KV_REST_DEFAULTS.maxStreamBufferBytes],
      ['headers-timeout-ms', KV_REST_DEFAULTS.headersTimeoutMs],
      ['request-timeout-ms', KV_REST_DEFAULTS.requestTimeoutMs],
      ['max-connections', KV_REST_DEFAULTS.maxConnections],
      ['linger-timeout-ms', KV_REST_DEFAULTS.lingerTimeoutMs],
      ['max-linger-bytes', KV_REST_DEFAULTS.maxLingerBytes],
      ['redis-url', REDIS_ENGINE_DEFAULTS.url],
      ['redis-timeout-ms', REDIS_ENGINE_DEFAULTS.commandTimeoutMs],
      ['retry-time-scale', WORKFLOW_DEFAULTS.timeScale],
      ['workflow-max-body-bytes', WORKFLOW_DEFAULTS.maxBodyBytes],
      ['workflow-max-active-runs', WORKFLOW_DEFAULTS.maxActiveRuns],
      ['workflow-max-pending-bytes', WORKFLOW_DEFAULTS.maxPendingBodyBytes],
      ['workflow-max-deliveries', WORKFLOW_DEFAULTS.maxConcurrentDeliveries],
      ['workflow-delivery-timeout-ms', WORKFLOW_DEFAULTS.deliveryTimeoutMs],
      ['workflow-kept-runs', WORKFLOW_DEFAULTS.keptFinishedRuns],
      ['workflow-kept-answer-bytes', WORKFLOW_DEFAULTS.keptAnswerBytes],
      ['workflow-headers-timeout-ms', WORKFLOW_DEFAULTS.headersTimeoutMs],
      ['workflow-request-timeout-ms', WORKFLOW_DEFAULTS.requestTimeoutMs],
      ['workflow-max-connections', WORKFLOW_DEFAULTS.maxConnections],
      ['workflow-linger-timeout-ms', WORKFLOW_DEFAULTS.lingerTimeoutMs],
      ['workflow-max-linger-bytes', WORKFLOW_DEFAULTS.maxLingerBytes],
    ];
    expect(shown.filter(([flag, value]) => !helpLine(flag)?.endsWith(`(default ${value})`))).toEqual([]);
  });

  it('reads the workflow server\'s connection bounds from their own flags and variables', () => {
    const options = parseMockOptions(['--workflow-headers-timeout-ms', '500', '--workflow-max-connections', '20'], { MOCK_WORKFLOW_REQUEST_TIMEOUT_MS: '900' });
    expect(options).toEqual({ workflowHeadersTimeoutMs: 500, workflowRequestTimeoutMs: 900, workflowMaxConnections: 20, help: false });
  });

  it('reads how long and how much each server reads of a refused body from their own flags and variables', () => {
    const options = parseMockOptions(['--linger-timeout-ms', '2000', '--workflow-max-linger-bytes', '1048576'], { MOCK_MAX_LINGER_BYTES: '4096', MOCK_WORKFLOW_LINGER_TIMEOUT_MS: '300' });
    expect(options).toEqual({ lingerTimeoutMs: 2000, maxLingerBytes: 4096, workflowLingerTimeoutMs: 300, workflowMaxLingerBytes: 1048576, help: false });
  });
});
