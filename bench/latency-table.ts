// The fixed-rate rows: what each limiter adds to a request's latency and to the app's CPU at a fixed
// moderate load (not at saturation, where latency only restates throughput and a limiter that batches
// its store calls also batches the answers), against the row's baseline and against the peer.
import type { AppSummary, FixedRate } from './app-bench';
import { storeCostCell, storeTransportOf } from './store-cost';
import { GRAPHQL_APP_FIXED_RATE } from './scenarios';
import { cell, markdownTable, signedCell, spreadCell } from './table';

const difference = (value: number | undefined, reference: number | undefined) => (value === undefined || reference === undefined ? undefined : value - reference);

export function latencyTable(summaries: readonly AppSummary[]): string {
  const rows = summaries.filter((summary) => summary.scenario.latency);
  const peer = rows.find((summary) => summary.scenario.role === 'peer');
  const baselineOf = (summary: AppSummary) => rows.find((candidate) => candidate.scenario === summary.baseline);
  const header = ['scenario', 'p50 µs', 'p99 µs', 'p50 added vs baseline', 'p99 added vs baseline', 'p50 vs the peer', 'p99 vs the peer', 'app CPU µs/req', 'CPU over baseline µs', 'total CPU per decision µs', 'store commands/req (calls carrying them)'];
  return markdownTable(
    header,
    rows.map((summary) => {
      const baseline = baselineOf(summary);
      const versusPeer = peer?.scenario.app === summary.scenario.app ? peer : undefined;
      return [
        summary.scenario.name,
        cell(summary.fixedRateP50Micros),
        cell(summary.fixedRateP99Micros),
        signedCell(difference(summary.fixedRateP50Micros, baseline?.fixedRateP50Micros)),
        signedCell(difference(summary.fixedRateP99Micros, baseline?.fixedRateP99Micros)),
        signedCell(difference(summary.fixedRateP50Micros, versusPeer?.fixedRateP50Micros)),
        signedCell(difference(summary.fixedRateP99Micros, versusPeer?.fixedRateP99Micros)),
        cell(summary.fixedRateCpuMicrosPerRequest, 1),
        summary.baseline === summary.scenario ? '+0.0' : spreadCell(summary.fixedRateCpuOverBaselineMicros, 1, 0, signedCell),
        spreadCell(summary.fixedRateTotalCpuPerDecision, 1),
        storeCostCell(summary.fixedRateStoreCost, storeTransportOf(summary.scenario.limiter)),
      ];
    }),
  );
}

export function latencyLegend(load: FixedRate): string {
  return [
    `- ${load.requestsPerSecond.toLocaleString('en-US')} requests per second sent at a steady rate over ${load.connections} keep-alive connections for ${load.seconds} s after ${load.warmupSeconds} s at that rate untimed (the scenario's throughput run has just warmed the app), one caller per connection; each response timed from its send in µs. The Strapi + GraphQL plugin rows are sent ${GRAPHQL_APP_FIXED_RATE.toLocaleString('en-US')} requests per second (Apollo's answer costs several times REST's CPU: at the rate above their requests would queue).`,
    "- added: the scenario's median over the rounds minus its baseline's (bare Koa, or Strapi with no limiter, or the row it names) or the peer's (Koa rows; the peer is rate-limiter-flexible on ioredis and redis-server).",
    '- app CPU: user + system time of the app process over the whole fixed-rate run, per request sent; "over baseline" per round, as in the table above (median, range, within noise).',
    "- total CPU per decision: as in the table above, from this run's CPU: the app's over bare Koa's plus the store processes' (their CPU over the whole fixed-rate run, per request sent).",
    '- store commands/req: as in the table above, per request sent over the whole fixed-rate run. At this load few requests share a store call, so a command that took a round trip of its own would show here as one more call per request.',
  ].join('\n');
}
