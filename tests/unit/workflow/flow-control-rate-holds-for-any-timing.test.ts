// Finding 13 of issue 19 (under rate=80 up to 160 calls arrived in one second), as a property.
// Property: whatever the arrival times and however long each call takes to be answered, a key
// under `rate=R, period=P` never has more than R calls that can reach the receiver within one
// period, and every call starts eventually, in arrival order. Runs FlowControl on a simulated clock.
import fc from 'fast-check';
import { FlowControl } from '../../../mock/workflow/flow-control';
import { SimulatedClock } from '../../support/simulated-clock';

interface Call {
  readonly arrival: number;
  readonly duration: number;
  start?: number;
  end?: number;
}

/** Plays the calls through FlowControl: events (arrivals, timers, answers) fire in time order. */
async function simulate(rate: number, period: number, calls: Call[]): Promise<void> {
  const flow = new FlowControl();
  const clock = new SimulatedClock();
  for (const call of calls) {
    clock.at(call.arrival, () =>
      void flow.acquire('k', { rate, period }, clock.now, clock.wait).then((release) => {
        call.start = clock.now();
        clock.at(clock.now() + call.duration, () => ((call.end = clock.now()), release()));
      }),
    );
  }
  await clock.run();
}

describe('the flow-control rate holds for any timing', () => {
  it('finding 13: never lets more than `rate` calls reach the receiver in one period, and starts every call in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 10, max: 1000 }),
        fc.array(fc.record({ arrival: fc.integer({ min: 0, max: 3000 }), duration: fc.integer({ min: 0, max: 1500 }) }), { minLength: 1, maxLength: 25 }),
        async (rate, period, timings) => {
          const calls: Call[] = timings.map((timing) => ({ ...timing })).sort((a, b) => a.arrival - b.arrival);
          await simulate(rate, period, calls);
          // A call reaches the receiver somewhere between its start and its end. At each start, the
          // calls already started that can still arrive within one period of it are at most `rate`.
          for (const call of calls) {
            const overlapping = calls.filter((other) => other.start! <= call.start! && other.end! + period > call.start!);
            expect(overlapping.length).toBeLessThanOrEqual(rate);
          }
          const starts = calls.map((call) => call.start!);
          expect(starts).toEqual([...starts].sort((a, b) => a - b));
        },
      ),
      { numRuns: 150 },
    );
  });
});
