// Latency at a fixed moderate load: requests sent at a steady rate (open loop) over a fixed set of
// keep-alive connections, each response timed in microseconds. autocannon cannot do this: its rate
// mode sends each connection's whole second of requests back to back, and its histogram counts whole
// milliseconds, while a limiter adds tens of microseconds at this load.
import { Agent, request } from 'node:http';
import type { LoadRequest } from './load';

export interface FixedRateOptions extends LoadRequest {
  readonly url: string;
  readonly requestsPerSecond: number;
  readonly connections: number;
  readonly seconds: number;
  /** Sent at the same rate before the timed part and not timed: whatever the previous run left queued drains first. */
  readonly warmupSeconds: number;
}

export interface FixedRateResult {
  /** Timed requests. */
  readonly requests: number;
  /** Every request of the run, the untimed ones included. */
  readonly sent: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** The value at quantile `q` of sorted values (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

export async function runFixedRate(options: FixedRateOptions): Promise<FixedRateResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const untimed = Math.round(options.requestsPerSecond * options.warmupSeconds);
  const total = untimed + Math.round(options.requestsPerSecond * options.seconds);
  const latencies = new Float64Array(total);
  let sent = 0;
  let answered = 0;
  let non2xx = 0;
  let errors = 0;

  await new Promise<void>((resolve) => {
    const settle = () => {
      answered += 1;
      if (answered === total) resolve();
    };
    const send = (index: number) => {
      const headers: Record<string, string> = { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
      if (options.perConnectionHeader) headers[options.perConnectionHeader] = `c${index % options.connections}`;
      const started = process.hrtime.bigint();
      const outgoing = request({ agent, method: options.method ?? 'GET', host: target.hostname, port: target.port, path: target.pathname, headers }, (response) => {
        response.resume();
        response.once('end', () => {
          latencies[index] = Number(process.hrtime.bigint() - started) / 1000;
          if (response.statusCode === undefined || response.statusCode < 200 || response.statusCode >= 300) non2xx += 1;
          settle();
        });
      });
      outgoing.once('error', () => {
        latencies[index] = Number.NaN;
        errors += 1;
        settle();
      });
      outgoing.end(body);
    };
    const startedAt = performance.now();
    // Every millisecond or so, sends what is due by now: a steady rate, whatever the timer's jitter.
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1000) * options.requestsPerSecond));
      while (sent < due) send(sent++);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  const timed = latencies.subarray(untimed).filter((latency) => !Number.isNaN(latency)).sort();
  return { requests: total - untimed, sent: total, p50Micros: quantile(timed, 0.5), p99Micros: quantile(timed, 0.99), non2xx, errors };
}
