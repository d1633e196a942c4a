// The load generator: autocannon's programmatic API, run in the parent process (apart from the app
// and store processes, whose CPU time is measured). One call is one fixed-duration run.
import autocannon from 'autocannon';

export interface LoadOptions extends LoadRequest {
  readonly url: string;
  /** How long the run lasts, unless `requests` is given. */
  readonly seconds?: number;
  /** A run of exactly this many requests (a warm-up that is the same for every app, whatever its speed). */
  readonly requests?: number;
  readonly connections?: number;
}

/** What each request of a load carries, whichever generator sends it (this one or fixed-rate-load.ts). */
export interface LoadRequest {
  readonly method?: 'GET' | 'POST';
  /** Sent with each request (a POST's), with its content-length. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A header whose value cycles over one caller per connection (`c0` ... `c<connections-1>`). */
  readonly perConnectionHeader?: string;
}

export interface LoadResult {
  /** Completed responses, any status. */
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
}

export const CONNECTIONS = 50;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const headers = { ...options.headers };
  let nextConnection = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? CONNECTIONS,
    // autocannon refuses an undefined duration, even with an amount.
    ...(options.requests === undefined ? { duration: options.seconds } : { amount: options.requests }),
    method: options.method ?? 'GET',
    body: options.body,
    headers,
    setupClient: options.perConnectionHeader
      ? (client) => client.setHeaders({ ...headers, [options.perConnectionHeader!]: `c${nextConnection++}` })
      : undefined,
  });
  const requests = result['2xx'] + result.non2xx;
  return {
    requests,
    requestsPerSecond: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
