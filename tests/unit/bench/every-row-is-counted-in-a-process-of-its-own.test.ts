// Issue 36 (the instruction counts' harness): `npm run bench:instructions` counted every row of a
// round in one process, one after another with a forced full garbage collection between them, so
// the row counted first read up to 1.27x a copy of the same build counted second, and the
// collection made V8 drop optimized code the next row compiled again. Each row of each round is now
// a process of its own; these tests prove the layout (bench/instruction-runs.ts) and the counts
// read from the command line.
import { countOption } from '../../../bench/command-line';
import { instructionRuns, runAtMost } from '../../../bench/instruction-runs';

describe('the processes of an instruction count', () => {
  it('gives each row of each round a process of its own, each round starting one row later', () => {
    expect(instructionRuns(['bare', 'peer', 'plugin'], 4).map(({ row, round }) => `${round}:${row}`)).toEqual([
      '0:bare', '0:peer', '0:plugin',
      '1:peer', '1:plugin', '1:bare',
      '2:plugin', '2:bare', '2:peer',
      '3:bare', '3:peer', '3:plugin',
    ]);
  });

  it('runs every process once, in order, never more at once than the jobs asked for', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await runAtMost([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
    });
    expect([started, most]).toEqual([[1, 2, 3, 4, 5], 2]);
  });
});

describe('a count on the command line (--rounds, --jobs, --per-turn)', () => {
  it('reads a whole number, the default without the option, and refuses anything else naming the option', () => {
    const read = (argv: string[]) => {
      try {
        return countOption('--jobs', 1, ['node', 'instructions.js', ...argv]);
      } catch (failure) {
        return (failure as Error).message;
      }
    };
    expect([read([]), read(['--jobs', '2']), read(['--jobs', 'two']), read(['--jobs', '0']), read(['--jobs', '1.5']), read(['--jobs'])]).toEqual([
      1,
      2,
      '--jobs needs a whole number from 1 to 999999, not "two"',
      '--jobs needs a whole number from 1 to 999999, not "0"',
      '--jobs needs a whole number from 1 to 999999, not "1.5"',
      '--jobs needs a whole number from 1 to 999999',
    ]);
  });
});
