// Finding 13 of issue 19, the parsing and flow-control side: `rate=1=2` was accepted, a retry-delay
// function was looked up on a plain object (so `constructor` was found), and rate slots counted
// from the start of a call, which let calls of two periods reach the receiver within one.
import { FlowControl, parseFlowControlValue } from '../../../mock/workflow/flow-control';
import { parseCombinedDuration } from '../../../mock/workflow/durations';
import { parseRetryDelay } from '../../../mock/workflow/retry-delay';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('flow-control values and retry-delay names are read strictly', () => {
  it.each(['rate=1=2', 'parallelism==3', 'rate=1, period=1s=2'])('finding 13: refuses the flow-control value %j', (value) => {
    expect(parseFlowControlValue(value, parseCombinedDuration)).toMatch(/^each setting is <name>=<value>, got "/);
  });

  it.each(['constructor(1)', 'toString(1)', 'hasOwnProperty(1)', '__proto__(1)', 'valueOf(1)'])('finding 13: refuses the retry delay %j as an unknown function', (expression) => {
    expect(() => parseRetryDelay(expression)).toThrow(/^unknown function "\w+": use pow, exp, sqrt, abs, floor, ceil, round, min, max$/);
  });

  it('finding 13: a rate slot is held until a period after its call ends, so no period sees more than `rate` arrivals', async () => {
    const flow = new FlowControl();
    let clock = 0;
    const timers: { at: number; wake: () => void }[] = [];
    const wait = (ms: number) => new Promise<void>((wake) => timers.push({ at: clock + ms, wake }));
    const started: [number, number][] = [];
    const releases: (() => void)[] = [];
    for (let i = 0; i < 3; i++) void flow.acquire('k', { rate: 2, period: 1000 }, () => clock, wait).then((release) => (started.push([i, clock]), releases.push(release)));
    await flush();
    expect(started).toEqual([[0, 0], [1, 0]]);
    // Both calls take 500 ms to be answered: their slots free up at 1500, not at 1000.
    clock = 500;
    releases.forEach((release) => release());
    expect(timers.map((timer) => timer.at)).toEqual([1500]);
    clock = 1500;
    timers.shift()!.wake();
    await flush();
    expect(started).toEqual([[0, 0], [1, 0], [2, 1500]]);
  });
});
