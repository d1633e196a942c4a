// Issue 27 finding 6 asks the redis engine for at least webdis's throughput on GET, SET and the
// sliding-window EVALSHA, both in front of the same redis-server. The targets table reads each as
// a ratio per round (the redis engine's row over webdis's same operation) and says met or missed.
import type { KvOperation, KvSample } from '../../../bench/kv-bench';
import { kvSampleKey } from '../../../bench/kv-bench';
import { targetsTable } from '../../../bench/targets';

const rounds = (requestsPerSecond: number[]): KvSample[] => requestsPerSecond.map((rate) => ({ requestsPerSecond: rate, p50Ms: 1, p99Ms: 2, failures: 0 }));

const kv = new Map<string, KvSample[]>([
  [kvSampleKey('redis engine', 'GET'), rounds([52_000, 51_000, 51_500])],
  [kvSampleKey('webdis', 'GET'), rounds([50_000, 50_000, 50_000])],
  [kvSampleKey('redis engine', 'SET'), rounds([40_000, 41_000, 39_000])],
  [kvSampleKey('webdis', 'SET'), rounds([50_000, 50_000, 50_000])],
  [kvSampleKey('redis engine', 'EVALSHA sliding-window'), rounds([44_000, 47_000, 46_000])],
  [kvSampleKey('webdis', 'EVALSHA sliding-window'), rounds([45_000, 45_000, 45_000])],
]);

const rowFor = (table: string, operation: KvOperation): string | undefined => table.split('\n').find((line) => line.includes(`redis engine ${operation} throughput`));

describe("the redis engine's throughput against webdis's is a target", () => {
  const table = targetsTable({ scenarios: [], app: new Map(), kv });

  it('is met when every round is above 1.0x', () => {
    expect(rowFor(table, 'GET')).toBe("| key-value server alone: redis engine GET throughput >= 1.0x webdis's GET (same redis-server) | 1.03 (1.02 to 1.04)x | met |");
  });

  it('is missed when every round is below webdis', () => {
    expect(rowFor(table, 'SET')).toBe("| key-value server alone: redis engine SET throughput >= 1.0x webdis's SET (same redis-server) | 0.80 (0.78 to 0.82)x | **missed** |");
  });

  it('is within noise when the rounds fall on both sides of 1.0x', () => {
    expect(rowFor(table, 'EVALSHA sliding-window')).toBe(
      "| key-value server alone: redis engine EVALSHA sliding-window throughput >= 1.0x webdis's EVALSHA sliding-window (same redis-server) | 1.02 (0.98 to 1.04)x | within noise (met by the median) |",
    );
  });

  it('is not measured without the rows', () => {
    const empty = targetsTable({ scenarios: [], app: new Map(), kv: new Map() });
    expect(rowFor(empty, 'GET')).toContain('| not measured |');
  });
});
