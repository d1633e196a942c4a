// The demo's plugin configuration: one strategy per algorithm on the demo app's public routes,
// written exactly as a user writes `config` in config/plugins.js.

export interface DemoScenario {
  /** What the table calls this strategy. */
  readonly title: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly burst: number;
}

export const DEMO_STRATEGIES = [
  {
    methods: ['GET'],
    path: '/api/ping',
    identifierSource: 'ip',
    limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s' },
  },
  {
    methods: ['GET'],
    path: '/api/articles',
    identifierSource: 'ip',
    limiter: { algorithm: 'sliding-window', tokens: 5, window: '10s' },
  },
  {
    methods: ['GET'],
    path: '/api/ping/:id',
    identifierSource: 'ip',
    limiter: { algorithm: 'token-bucket', tokens: 5, window: '10s', refillRate: 1 },
  },
  {
    methods: ['POST'],
    path: '/api/ping',
    identifierSource: 'header.x-api-key',
    limiter: { algorithm: 'fixed-window', tokens: 3, window: '1m' },
  },
] as const;

export const DEMO_SCENARIOS: readonly DemoScenario[] = [
  { title: 'fixed-window   GET /api/ping (5 per 10s, by IP)', method: 'GET', path: '/api/ping', burst: 8 },
  { title: 'sliding-window GET /api/articles (5 per 10s, by IP)', method: 'GET', path: '/api/articles', burst: 8 },
  { title: 'token-bucket   GET /api/ping/:id (5, +1 per 10s, by IP)', method: 'GET', path: '/api/ping/42', burst: 8 },
  { title: 'fixed-window   POST /api/ping (3 per 1m, by x-api-key)', method: 'POST', path: '/api/ping', headers: { 'x-api-key': 'demo-key' }, burst: 5 },
];
