// Which layer of the app a CPU profile's frame belongs to (the columns of `npm run bench:profile`),
// as one table of rules, so that what a column holds is read in one place and printed under the
// table from the same rules. A frame is matched by the native it is (socket writes, GC), the Node
// module it comes from, the npm package it comes from, or the project folder it was compiled to; a
// rule can also ask what called it (a socket write made by a limiter is a write to its store).
// Natives not named here (builtins, regular expressions) have no layer of their own:
// their time goes to the JavaScript function that called them (see cpu-profile.ts).

export type Layer =
  | 'kernel writes: to the store'
  | 'kernel writes: responses'
  | "Node's HTTP"
  | 'promise jobs'
  | 'Node, other'
  | 'Koa'
  | 'plugin'
  | '@upstash/ratelimit'
  | '@upstash/redis'
  | 'embedded store'
  | 'memory engine'
  | 'Lua (fengari)'
  | 'ioredis'
  | 'rate-limiter-flexible'
  | 'bench app'
  | 'GC'
  | 'other';

export interface LayerRule {
  readonly layer: Layer;
  /** Natives (a frame with no script) by function name: `writev`, `(garbage collector)`. */
  readonly natives?: readonly string[];
  /** Node's own modules by URL prefix: `node:_http_` holds `node:_http_server`, `node:_http_outgoing`, ... */
  readonly nodeModules?: readonly string[];
  /** npm packages by name, wherever node_modules holds them. */
  readonly packages?: readonly string[];
  /** Folders of this project's build output (under dist/), outside node_modules. */
  readonly projectFolders?: readonly string[];
  /** Only when one of these layers is lower on the stack. */
  readonly calledFrom?: readonly Layer[];
  /** Said after the rule in the legend. */
  readonly note?: string;
}

/** libuv's socket writes, the syscall itself: the writer wakes a waiting reader here. */
const SOCKET_WRITES = ['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String'];

/** The rules, first match wins; their order is the table's column order. */
export const LAYER_RULES: readonly LayerRule[] = [
  // A limiter's requests to its store server (the embedded store has none), then every other write: the app's responses.
  { layer: 'kernel writes: to the store', natives: SOCKET_WRITES, calledFrom: ['plugin', '@upstash/ratelimit', '@upstash/redis', 'ioredis', 'rate-limiter-flexible'] },
  { layer: 'kernel writes: responses', natives: SOCKET_WRITES, note: 'every other write: the answers to the load' },
  { layer: "Node's HTTP", nodeModules: ['node:_http_', 'node:http', 'node:net', 'node:internal/net', 'node:stream', 'node:internal/streams/', 'node:internal/stream_base_commons', 'node:internal/http'] },
  // The microtask queue's own work, around every promise reaction (the reactions' functions count for their own layers).
  { layer: 'promise jobs', natives: ['runMicrotasks'], nodeModules: ['node:internal/process/task_queues'] },
  { layer: 'Node, other', nodeModules: ['node:'], note: 'the rest of them' },
  {
    layer: 'Koa',
    packages: [
      'koa', 'koa-compose', 'koa-convert', 'delegates', 'accepts', 'cache-content-type', 'content-disposition', 'content-type', 'cookies', 'keygrip', 'depd',
      'destroy', 'encodeurl', 'escape-html', 'fresh', 'http-assert', 'http-errors', 'is-generator-function', 'on-finished', 'ee-first', 'only', 'parseurl',
      'statuses', 'type-is', 'media-typer', 'mime-types', 'negotiator', 'vary', 'ylru', 'inherits', 'setprototypeof', 'toidentifier', 'safe-buffer',
    ],
  },
  { layer: 'plugin', projectFolders: ['server/', 'shared/'] },
  { layer: '@upstash/ratelimit', packages: ['@upstash/ratelimit', '@upstash/core-analytics'] },
  { layer: '@upstash/redis', packages: ['@upstash/redis', 'uncrypto'] },
  // The memory engine's folder first: the rest of mock/ in the app is the embedded store around it.
  { layer: 'memory engine', projectFolders: ['mock/kv-rest/memory/'] },
  { layer: 'embedded store', projectFolders: ['mock/'], note: 'the rest of it: the REST side in-process' },
  { layer: 'Lua (fengari)', packages: ['fengari'] },
  // The Redis client apart from the peer's limiter: the plugin over redis:// runs the same client.
  { layer: 'ioredis', packages: ['ioredis', '@ioredis/commands', 'cluster-key-slot', 'denque', 'redis-errors', 'standard-as-callback'] },
  { layer: 'rate-limiter-flexible', packages: ['rate-limiter-flexible'] },
  // The app child itself: its route, the peer's middleware as its README wires it, the embedded store's call counter.
  { layer: 'bench app', projectFolders: ['bench/', 'tests/'] },
  { layer: 'GC', natives: ['(garbage collector)'] },
  // V8 and libuv outside any JavaScript (reads, the event loop's polling, compilation).
  { layer: 'other', natives: ['(program)', '(root)'], note: 'and every script no rule above names' },
];

export const LAYERS: readonly Layer[] = LAYER_RULES.map((rule) => rule.layer);

/** The layers that are the plugin's own stack (ioredis with a redis:// url): the top functions are listed for these. */
export const PLUGIN_SIDE_LAYERS: readonly Layer[] = ['plugin', '@upstash/ratelimit', '@upstash/redis', 'embedded store', 'memory engine', 'Lua (fengari)', 'ioredis'];

/** What a profile says of a function (Chrome DevTools protocol's `Runtime.CallFrame`, the part read here). */
export interface CallFrame {
  readonly functionName: string;
  /** `node:...`, `file:///...`, or '' for a native. */
  readonly url: string;
  /** 0-based. */
  readonly lineNumber: number;
}

/** The V8 profiler's name for time the main thread spent waiting (in the event loop's poll): not CPU. */
export const IDLE = '(idle)';

const NODE_MODULES = '/node_modules/';
const DIST = '/dist/';

/**
 * The frame's layer (`other` for a script no rule names), given the layers of the frames below it on
 * the stack; undefined for a native no rule names: its caller's layer counts.
 */
export function layerOfFrame(frame: CallFrame, callerLayers: ReadonlySet<Layer> = new Set()): Layer | undefined {
  const rules = LAYER_RULES.filter((rule) => rule.calledFrom === undefined || rule.calledFrom.some((layer) => callerLayers.has(layer)));
  if (frame.url === '') return rules.find((rule) => rule.natives?.includes(frame.functionName))?.layer;
  const where = placeOf(frame.url);
  return (
    rules.find((rule) => {
      if (where.kind === 'node') return rule.nodeModules?.some((prefix) => frame.url.startsWith(prefix));
      if (where.kind === 'package') return rule.packages?.includes(where.name);
      return where.kind === 'project' && rule.projectFolders?.some((folder) => where.path.startsWith(folder));
    })?.layer ?? 'other'
  );
}

type Place = { kind: 'node' } | { kind: 'package'; name: string } | { kind: 'project'; path: string } | { kind: 'elsewhere' };

/** Where a script comes from: one of Node's modules, an npm package (the innermost node_modules), or this project's dist/. */
function placeOf(url: string): Place {
  if (url.startsWith('node:')) return { kind: 'node' };
  const packageStart = url.lastIndexOf(NODE_MODULES);
  if (packageStart >= 0) {
    const parts = url.slice(packageStart + NODE_MODULES.length).split('/');
    return { kind: 'package', name: parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0] };
  }
  const distStart = url.lastIndexOf(DIST);
  return distStart >= 0 ? { kind: 'project', path: url.slice(distStart + DIST.length) } : { kind: 'elsewhere' };
}

/** A script's place for a reader: `node:_http_outgoing`, `koa/lib/application.js`, `dist/server/src/http/middleware.js`. */
export function shortLocation(frame: CallFrame): string {
  const line = frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : '';
  if (frame.url === '') return '(native)';
  const packageStart = frame.url.lastIndexOf(NODE_MODULES);
  if (packageStart >= 0) return `${frame.url.slice(packageStart + NODE_MODULES.length)}${line}`;
  const distStart = frame.url.lastIndexOf(DIST);
  if (distStart >= 0) return `${frame.url.slice(distStart + 1)}${line}`;
  return `${frame.url}${line}`;
}

/** One line per rule for the legend under the table: what each column holds. */
export function layerLegend(): string[] {
  return LAYER_RULES.map((rule) => {
    const parts = [
      rule.natives && `the natives ${rule.natives.map((name) => `\`${name}\``).join(', ')}`,
      rule.nodeModules && `Node's modules ${rule.nodeModules.map((prefix) => `\`${prefix}${prefix.endsWith('/') || prefix.endsWith('_') ? '*' : ''}\``).join(', ')}`,
      rule.packages && `the package${rule.packages.length > 1 ? 's' : ''} ${rule.packages.join(', ')}`,
      rule.projectFolders && `this project's ${rule.projectFolders.map((folder) => `dist/${folder}`).join(', ')}`,
      rule.calledFrom && `called from ${rule.calledFrom.join(', ')}`,
    ].filter((part): part is string => part !== undefined);
    return `- ${rule.layer}: ${parts.join('; ')}${rule.note ? ` (${rule.note})` : ''}.`;
  });
}
