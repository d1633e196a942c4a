// The memory scenario from the parent's side: forks memory-process.ts with --expose-gc and turns
// its measurements into a table.
import type { MemoryInput, MemoryResult } from './memory-process';
import { forkChild } from './processes';
import type { StoreEndpoint } from './store-process';
import { cell, markdownTable } from './table';

export async function measureMemory(store: StoreEndpoint, callers: number): Promise<MemoryResult> {
  const input: MemoryInput = { store, callers };
  const child = await forkChild<Record<string, never>>('memory-process', [JSON.stringify(input)], { execArgv: ['--expose-gc'] });
  try {
    return await child.calls.call<MemoryResult>('run');
  } finally {
    await child.stop();
  }
}

/** What the columns mean, printed under the table. */
export const MEMORY_LEGEND = [
  '- Every caller sends two requests to a fixed-window strategy of 1 token per hour, so each caller is refused once and enters the block cache (default `blockedCacheSize`, 10,000).',
  '- heapUsed after GC is what the plugin keeps reachable; RSS also holds the pages V8 grew into while requests were in flight (peak RSS: the process\'s maximum).',
].join('\n');

const mebibytes = (bytes: number) => cell(bytes / 2 ** 20, 1);

export function memoryTable(result: MemoryResult): string {
  return markdownTable(
    ['callers (2 requests each)', 'seconds', 'requests/s', 'refused', 'CPU µs/req', 'RSS before MiB', 'RSS after MiB', 'peak RSS MiB', 'heapUsed before MiB', 'heapUsed after GC MiB'],
    [[
      cell(result.callers),
      cell(result.seconds, 1),
      cell((2 * result.callers) / result.seconds),
      cell(result.refused),
      cell(result.cpuMicros / (2 * result.callers), 1),
      mebibytes(result.rssBeforeBytes),
      mebibytes(result.rssAfterBytes),
      mebibytes(result.maxRssBytes),
      mebibytes(result.heapUsedBeforeBytes),
      mebibytes(result.heapUsedAfterGcBytes),
    ]],
  );
}
