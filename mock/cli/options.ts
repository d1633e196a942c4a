// The options of the `kv` and `mock` commands, described once: flag, environment variable, type and
// help text. Parsing, validation and `--help` all read these tables; the defaults they show are the
// servers' own. `kv` (the key-value server alone, what a plugin user needs) takes the key-value
// server's options, its port as `--port`; `mock` takes them with the port as `--kv-port`, and the
// workflow server's.
import { parseArgs } from 'node:util';
import { REDIS_ENGINE_DEFAULTS } from '../kv-rest/redis/redis-engine';
import { KV_REST_DEFAULTS } from '../kv-rest/server';
import { WORKFLOW_DEFAULTS } from '../workflow/server';

interface OptionSpec {
  readonly flag: string;
  readonly env: string;
  readonly type: 'string' | 'port' | 'count' | 'engine' | 'scale';
  readonly help: string;
  /** The value used when the option is not given, added to the help text; from the servers' own defaults. */
  readonly default?: string | number;
}

const KV = KV_REST_DEFAULTS;
const WF = WORKFLOW_DEFAULTS;

const KV_PORT = { flag: 'kv-port', env: 'MOCK_KV_PORT', type: 'port', help: 'key-value REST port; 0 = any free port', default: 8079 } as const satisfies OptionSpec;

/** The key-value server's options other than its port. */
const KV_SERVER_OPTIONS = {
  host: { flag: 'host', env: 'MOCK_HOST', type: 'string', help: 'interface to bind', default: KV.host },
  token: { flag: 'token', env: 'MOCK_KV_TOKEN', type: 'string', help: 'Standard token (default: random)' },
  readonlyToken: { flag: 'readonly-token', env: 'MOCK_KV_READONLY_TOKEN', type: 'string', help: 'Read Only token (default: random)' },
  prefix: { flag: 'prefix', env: 'MOCK_PREFIX', type: 'string', help: 'header prefix, Upstash or Svc', default: KV.prefix },
  maxRequestBytes: { flag: 'max-request-bytes', env: 'MOCK_MAX_REQUEST_BYTES', type: 'count', help: 'largest command in bytes', default: KV.maxRequestBytes },
  dailyLimit: { flag: 'daily-limit', env: 'MOCK_DAILY_LIMIT', type: 'count', help: 'commands per UTC day, 0 = unlimited', default: KV.dailyLimit },
  maxResponseBytes: { flag: 'max-response-bytes', env: 'MOCK_MAX_RESPONSE_BYTES', type: 'count', help: 'largest response in bytes; a pipeline asking more gets 400', default: KV.maxResponseBytes },
  maxResponseElements: { flag: 'max-response-elements', env: 'MOCK_MAX_RESPONSE_ELEMENTS', type: 'count', help: 'largest response in array items at every depth; a pipeline asking more gets 400', default: KV.maxResponseElements },
  maxStreamBufferBytes: { flag: 'max-stream-buffer-bytes', env: 'MOCK_MAX_STREAM_BUFFER_BYTES', type: 'count', help: 'unsent bytes of one /subscribe or /monitor stream before its slow client is disconnected', default: KV.maxStreamBufferBytes },
  headersTimeoutMs: { flag: 'headers-timeout-ms', env: 'MOCK_HEADERS_TIMEOUT_MS', type: 'count', help: 'longest wait for request headers, then 408', default: KV.headersTimeoutMs },
  requestTimeoutMs: { flag: 'request-timeout-ms', env: 'MOCK_REQUEST_TIMEOUT_MS', type: 'count', help: 'longest wait for a whole request, then 408', default: KV.requestTimeoutMs },
  maxConnections: { flag: 'max-connections', env: 'MOCK_MAX_CONNECTIONS', type: 'count', help: 'open connections at most; more are closed at once', default: KV.maxConnections },
  lingerTimeoutMs: { flag: 'linger-timeout-ms', env: 'MOCK_LINGER_TIMEOUT_MS', type: 'count', help: 'after a 413, longest the rest of the body is read and thrown away, then the connection is destroyed', default: KV.lingerTimeoutMs },
  maxLingerBytes: { flag: 'max-linger-bytes', env: 'MOCK_MAX_LINGER_BYTES', type: 'count', help: 'after a 413, most bytes of the rest of the body read and thrown away', default: KV.maxLingerBytes },
  tlsCertFile: { flag: 'tls-cert-file', env: 'MOCK_TLS_CERT_FILE', type: 'string', help: 'PEM certificate to serve https with (with --tls-key-file; default: plain HTTP)' },
  tlsKeyFile: { flag: 'tls-key-file', env: 'MOCK_TLS_KEY_FILE', type: 'string', help: 'PEM private key of --tls-cert-file' },
  engine: { flag: 'engine', env: 'MOCK_ENGINE', type: 'engine', help: 'memory (embedded) or redis (a real redis-server)', default: 'memory' },
  redisUrl: { flag: 'redis-url', env: 'MOCK_REDIS_URL', type: 'string', help: 'redis engine: redis://[user:pass@]host:port/db, or redis+sentinel://host:port,host:port/<master name>[/db] for a Sentinel-managed primary', default: REDIS_ENGINE_DEFAULTS.url },
  redisPrivateDb: { flag: 'redis-private-db', env: 'MOCK_REDIS_PRIVATE_DB', type: 'count', help: 'redis engine: database keeping the daily count and script texts, not the served one', default: REDIS_ENGINE_DEFAULTS.privateDb },
  redisTimeoutMs: { flag: 'redis-timeout-ms', env: 'MOCK_REDIS_TIMEOUT_MS', type: 'count', help: 'redis engine: longest wait for redis-server to answer, streams included', default: REDIS_ENGINE_DEFAULTS.commandTimeoutMs },
} as const satisfies Record<string, OptionSpec>;

const WORKFLOW_OPTIONS = {
  workflowPort: { flag: 'workflow-port', env: 'MOCK_WORKFLOW_PORT', type: 'port', help: 'workflow trigger server port; 0 = any free port', default: 8080 },
  workflowToken: { flag: 'workflow-token', env: 'MOCK_WORKFLOW_TOKEN', type: 'string', help: 'workflow server bearer token (default: random)' },
  signingKey: { flag: 'signing-key', env: 'MOCK_SIGNING_KEY', type: 'string', help: 'workflow server: current signing key of deliveries (default: random)' },
  nextSigningKey: { flag: 'next-signing-key', env: 'MOCK_NEXT_SIGNING_KEY', type: 'string', help: 'workflow server: next signing key (default: random)' },
  retryTimeScale: { flag: 'retry-time-scale', env: 'MOCK_RETRY_TIME_SCALE', type: 'scale', help: 'workflow server: multiplies delays, flow-control periods and retry delays; 0.001 for tests', default: WF.timeScale },
  workflowMaxBodyBytes: { flag: 'workflow-max-body-bytes', env: 'MOCK_WORKFLOW_MAX_BODY_BYTES', type: 'count', help: 'workflow server: largest request body', default: WF.maxBodyBytes },
  workflowMaxActiveRuns: { flag: 'workflow-max-active-runs', env: 'MOCK_WORKFLOW_MAX_ACTIVE_RUNS', type: 'count', help: 'workflow server: runs not finished yet, 429 past it', default: WF.maxActiveRuns },
  workflowMaxPendingBytes: { flag: 'workflow-max-pending-bytes', env: 'MOCK_WORKFLOW_MAX_PENDING_BYTES', type: 'count', help: 'workflow server: bodies held for unfinished runs, 429 past it', default: WF.maxPendingBodyBytes },
  workflowMaxDeliveries: { flag: 'workflow-max-deliveries', env: 'MOCK_WORKFLOW_MAX_DELIVERIES', type: 'count', help: 'workflow server: calls in flight at once, more wait', default: WF.maxConcurrentDeliveries },
  workflowDeliveryTimeoutMs: { flag: 'workflow-delivery-timeout-ms', env: 'MOCK_WORKFLOW_DELIVERY_TIMEOUT_MS', type: 'count', help: 'workflow server: an attempt with no answer by then fails', default: WF.deliveryTimeoutMs },
  workflowKeptRuns: { flag: 'workflow-kept-runs', env: 'MOCK_WORKFLOW_KEPT_RUNS', type: 'count', help: 'workflow server: finished runs kept, oldest dropped', default: WF.keptFinishedRuns },
  workflowState: { flag: 'workflow-state', env: 'MOCK_WORKFLOW_STATE', type: 'string', help: 'workflow server: file keeping unfinished runs across restarts (default: memory only)' },
  workflowKeptAnswerBytes: { flag: 'workflow-kept-answer-bytes', env: 'MOCK_WORKFLOW_KEPT_ANSWER_BYTES', type: 'count', help: 'workflow server: bytes kept of each answer body', default: WF.keptAnswerBytes },
  workflowHeadersTimeoutMs: { flag: 'workflow-headers-timeout-ms', env: 'MOCK_WORKFLOW_HEADERS_TIMEOUT_MS', type: 'count', help: 'workflow server: longest wait for request headers, then 408', default: WF.headersTimeoutMs },
  workflowRequestTimeoutMs: { flag: 'workflow-request-timeout-ms', env: 'MOCK_WORKFLOW_REQUEST_TIMEOUT_MS', type: 'count', help: 'workflow server: longest wait for a whole request, then 408', default: WF.requestTimeoutMs },
  workflowMaxConnections: { flag: 'workflow-max-connections', env: 'MOCK_WORKFLOW_MAX_CONNECTIONS', type: 'count', help: 'workflow server: open connections at most; more are closed at once', default: WF.maxConnections },
  workflowLingerTimeoutMs: { flag: 'workflow-linger-timeout-ms', env: 'MOCK_WORKFLOW_LINGER_TIMEOUT_MS', type: 'count', help: 'workflow server: after a 413, longest the rest of the body is read and thrown away', default: WF.lingerTimeoutMs },
  workflowMaxLingerBytes: { flag: 'workflow-max-linger-bytes', env: 'MOCK_WORKFLOW_MAX_LINGER_BYTES', type: 'count', help: 'workflow server: after a 413, most bytes of the rest of the body read and thrown away', default: WF.maxLingerBytes },
} as const satisfies Record<string, OptionSpec>;

export const MOCK_OPTIONS = { kvPort: KV_PORT, ...KV_SERVER_OPTIONS, ...WORKFLOW_OPTIONS } as const;
export const KV_OPTIONS = { port: { ...KV_PORT, flag: 'port' }, ...KV_SERVER_OPTIONS } as const;

type ValueOf<T extends OptionSpec['type']> = T extends 'string' ? string : T extends 'engine' ? 'memory' | 'redis' : number;
type OptionsOf<Table extends Record<string, OptionSpec>> = { [K in keyof Table]?: ValueOf<Table[K]['type']> };
export type MockOptions = OptionsOf<typeof MOCK_OPTIONS>;
export type KvOptions = OptionsOf<typeof KV_OPTIONS>;

export class UsageError extends Error {}

function convert(spec: OptionSpec, raw: string): string | number {
  if (spec.type === 'string') return raw;
  if (spec.type === 'scale') {
    const scale = Number(raw);
    if (!(scale > 0) || !Number.isFinite(scale)) throw new UsageError(`--${spec.flag} (${spec.env}): "${raw}" is not a positive number`);
    return scale;
  }
  if (spec.type === 'engine') {
    if (raw !== 'memory' && raw !== 'redis') throw new UsageError(`--${spec.flag} (${spec.env}): "${raw}" is not memory or redis`);
    return raw;
  }
  const value = Number(raw);
  const max = spec.type === 'port' ? 65_535 : Number.MAX_SAFE_INTEGER;
  if (!/^\d+$/.test(raw) || value > max) {
    throw new UsageError(`--${spec.flag} (${spec.env}): "${raw}" is not ${spec.type === 'port' ? 'a port number (0-65535)' : 'a whole number'}`);
  }
  return value;
}

/** Flags win over environment variables; anything unknown is a usage error naming it. */
function parseOptions<Table extends Record<string, OptionSpec>>(table: Table, argv: readonly string[], env: NodeJS.ProcessEnv): OptionsOf<Table> & { help: boolean } {
  const entries = Object.entries(table) as [string, OptionSpec][];
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' }, ...Object.fromEntries(entries.map(([, spec]) => [spec.flag, { type: 'string' as const }])) },
      strict: true,
      allowPositionals: false,
    });
  } catch (failure) {
    throw new UsageError(failure instanceof Error ? failure.message : String(failure));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const options: Record<string, string | number> = {};
  for (const [name, spec] of entries) {
    const raw = (values[spec.flag] as string | undefined) ?? env[spec.env];
    if (raw !== undefined && raw !== '') options[name] = convert(spec, raw);
  }
  return { ...(options as OptionsOf<Table>), help: values.help === true };
}

export const parseMockOptions = (argv: readonly string[], env: NodeJS.ProcessEnv): MockOptions & { help: boolean } => parseOptions(MOCK_OPTIONS, argv, env);
export const parseKvOptions = (argv: readonly string[], env: NodeJS.ProcessEnv): KvOptions & { help: boolean } => parseOptions(KV_OPTIONS, argv, env);

function usage(command: string, summary: string, table: Record<string, OptionSpec>): string {
  const specs: readonly OptionSpec[] = Object.values(table);
  const flagWidth = Math.max(...specs.map((spec) => spec.flag.length)) + 3;
  const envWidth = Math.max(...specs.map((spec) => spec.env.length)) + 1;
  const lines = specs.map((spec) => `  ${`--${spec.flag}`.padEnd(flagWidth)}${spec.env.padEnd(envWidth)}${spec.help}${spec.default === undefined ? '' : ` (default ${spec.default})`}`);
  return [`Usage: strapi-plugin-ratelimit ${command} [options]`, '', summary, '', `  ${'flag'.padEnd(flagWidth)}environment variable`, ...lines].join('\n');
}

export const mockUsage = (): string => usage('mock', 'Starts the local key-value REST server and the workflow trigger server.', MOCK_OPTIONS);
export const kvUsage = (): string => usage('kv', 'Starts the local key-value REST server alone (the store the plugin needs).', KV_OPTIONS);
