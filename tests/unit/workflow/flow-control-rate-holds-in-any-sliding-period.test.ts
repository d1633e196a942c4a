// Finding 6 of issue 25 (more than `rate` calls of a key started within one period), as a property
// on a simulated clock: whatever the arrival times, answer durations and failures (each retried
// after its own delay, through flow control again), and wherever the server restarts from its saved
// rate slots, no window of `period` ms, placed anywhere, holds more than `rate` starts of the key,
// and every call succeeds in the end.
import fc from 'fast-check';
import { FlowControl } from '../../../mock/workflow/flow-control';
import { mostInOnePeriod } from '../../support/most-in-one-period';
import { SimulatedClock } from '../../support/simulated-clock';

interface Call {
  readonly arrival: number;
  readonly duration: number;
  /** Attempts that fail before one succeeds. */
  readonly failures: number;
  readonly retryDelay: number;
}

interface Outcome {
  readonly starts: number[];
  readonly succeeded: number;
}

/** Plays the calls through FlowControl, restarting it at `restartAt` from its saved rate slots. */
async function simulate(rate: number, period: number, calls: readonly Call[], restartAt: number): Promise<Outcome> {
  const clock = new SimulatedClock();
  let flow = new FlowControl();
  /** Bumped by the restart: whatever the old FlowControl still does is ignored from then on. */
  let generation = 0;
  const starts: number[] = [];
  let succeeded = 0;
  /** Calls waiting or in flight under the current FlowControl: the restart hands them to the next. */
  const pending = new Set<{ call: Call; failed: number }>();

  const attempt = (entry: { call: Call; failed: number }): void => {
    const mine = generation;
    pending.add(entry);
    void flow.acquire('k', { rate, period }, clock.now, clock.wait).then((release) => {
      if (mine !== generation) return;
      starts.push(clock.now());
      clock.at(clock.now() + entry.call.duration, () => {
        if (mine !== generation) return;
        pending.delete(entry);
        release();
        if (entry.failed < entry.call.failures) clock.at(clock.now() + entry.call.retryDelay, () => attempt({ call: entry.call, failed: entry.failed + 1 }));
        else succeeded++;
      });
    });
  };

  for (const call of calls) clock.at(call.arrival, () => attempt({ call, failed: 0 }));
  clock.at(restartAt, () => {
    const saved = flow.rateSlots(clock.now());
    generation++;
    flow = new FlowControl();
    flow.restoreRateSlots(saved);
    // A waiting call waits again; a call in flight was cut short and is tried again.
    const handed = [...pending];
    pending.clear();
    for (const entry of handed) attempt(entry);
  });
  await clock.run();
  return { starts, succeeded };
}

describe('the flow-control rate holds in any sliding period', () => {
  it('never starts more than `rate` calls of a key in any window of `period` ms, across retries and a restart from the saved slots', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 10, max: 1000 }),
        fc.integer({ min: 0, max: 4000 }),
        fc.array(
          fc.record({
            arrival: fc.integer({ min: 0, max: 3000 }),
            duration: fc.integer({ min: 0, max: 300 }),
            failures: fc.integer({ min: 0, max: 2 }),
            retryDelay: fc.integer({ min: 0, max: 500 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        async (rate, period, restartAt, calls) => {
          const { starts, succeeded } = await simulate(rate, period, calls, restartAt);
          expect(mostInOnePeriod(starts, period)).toBeLessThanOrEqual(rate);
          expect(succeeded).toBe(calls.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
