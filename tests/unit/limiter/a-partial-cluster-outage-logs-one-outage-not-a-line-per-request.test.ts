// Review of issue 34's per-master circuit breakers (server/src/limiter/store-health.ts): on a Redis
// Cluster with one master down, requests on the healthy masters answer between the failures of those
// on the dead master. Each answer ended the outage and each failure began a new one: two log lines
// per request, and the header key written back at every answer. An outage now ends at the first
// answer at least OUTAGE_QUIET_MS after its last failure.
import { OUTAGE_QUIET_MS, StoreHealth } from '../../../server/src/limiter/store-health';

function healthWithLines(): { health: StoreHealth; lines: string[]; recoveries: () => number } {
  const lines: string[] = [];
  let recoveries = 0;
  const logger = { info: (line: string) => lines.push(`info ${line.split(' (')[0]}`), warn: (line: string) => lines.push(`warn ${line.split(' (')[0]}`) };
  const health = new StoreHealth(logger, 'open', 'Redis', () => (recoveries += 1));
  return { health, lines, recoveries: () => recoveries };
}

describe('a partial Cluster outage', () => {
  it('logs one outage while answers and failures interleave, and its end once no call failed for the quiet period', () => {
    const { health, lines, recoveries } = healthWithLines();
    const start = 1_000_000;
    // 200 requests over one second, every other one on the dead master.
    for (let request = 0; request < 200; request += 1) {
      const now = start + request * 5;
      if (request % 2 === 0) health.failed(new Error('connect ECONNREFUSED 127.0.0.1:7001'), now);
      else health.recovered(now);
    }
    expect({ lines, recoveries: recoveries(), outage: health.report().outage }).toEqual({
      lines: ['warn [ratelimit] Redis failed'],
      recoveries: 0,
      outage: true,
    });
    const lastFailure = start + 198 * 5;
    health.recovered(lastFailure + OUTAGE_QUIET_MS - 1);
    expect(lines).toHaveLength(1);
    health.recovered(lastFailure + OUTAGE_QUIET_MS);
    expect({ lines, recoveries: recoveries(), report: health.report() }).toEqual({
      lines: ['warn [ratelimit] Redis failed', 'info [ratelimit] Redis answers again after 2 s; limits apply. 100 requests were let through unchecked during the outage'],
      recoveries: 1,
      report: { admitted: 100, outage: false },
    });
  });
});
