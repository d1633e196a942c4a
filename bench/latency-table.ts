// The latency rows: what each limiter adds to a request's latency at a fixed moderate load (not at
// saturation, where latency only restates throughput), against bare Koa and against the peer.
import type { AppSummary, FixedRate } from './app-bench';
import { cell, markdownTable, signedCell } from './table';

const difference = (value: number | undefined, reference: number | undefined) => (value === undefined || reference === undefined ? undefined : value - reference);

export function latencyTable(summaries: readonly AppSummary[]): string {
  const rows = summaries.filter((summary) => summary.scenario.latency);
  const bare = rows.find((summary) => summary.scenario.limiter.kind === 'none');
  const peer = rows.find((summary) => summary.scenario.role === 'peer');
  const header = ['scenario', 'p50 µs', 'p99 µs', 'p50 added vs bare Koa', 'p99 added vs bare Koa', 'p50 vs the peer', 'p99 vs the peer'];
  return markdownTable(
    header,
    rows.map((summary) => [
      summary.scenario.name,
      cell(summary.fixedRateP50Micros),
      cell(summary.fixedRateP99Micros),
      signedCell(difference(summary.fixedRateP50Micros, bare?.fixedRateP50Micros)),
      signedCell(difference(summary.fixedRateP99Micros, bare?.fixedRateP99Micros)),
      signedCell(difference(summary.fixedRateP50Micros, peer?.fixedRateP50Micros)),
      signedCell(difference(summary.fixedRateP99Micros, peer?.fixedRateP99Micros)),
    ]),
  );
}

export function latencyLegend(load: FixedRate): string {
  return [
    `- ${load.requestsPerSecond.toLocaleString('en-US')} requests per second sent at a steady rate over ${load.connections} keep-alive connections for ${load.seconds} s after ${load.warmupSeconds} s at that rate untimed (the scenario's throughput run has just warmed the app), one caller per connection; each response timed from its send in µs.`,
    '- added: the scenario\'s median over the rounds minus the bare Koa app\'s (or the peer\'s); the peer is rate-limiter-flexible on ioredis and redis-server.',
  ].join('\n');
}
