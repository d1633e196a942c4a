// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Client {
    setHeaders(headers: Record<string, string>): void;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** A run of this many requests; `duration` is then ignored. */
    amount?: number;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    setupClient?: (client: Client) => void;
  }

  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }

  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
