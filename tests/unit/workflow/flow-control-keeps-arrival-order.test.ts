// Flow control queues deliveries over a key's limits and starts them in arrival order: a newcomer
// never overtakes a waiter when room appears, and rate limits reopen after the period.
import { FlowControl } from '../../../mock/workflow/flow-control';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('flow control order', () => {
  it('hands a freed parallelism slot to the oldest waiter, not to a newcomer', async () => {
    const flow = new FlowControl();
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const enter = (name: string) =>
      void flow.acquire('k', { parallelism: 1, period: 1000 }, () => 0, () => new Promise(() => undefined)).then((release) => {
        started.push(name);
        releases.set(name, release);
      });
    enter('a');
    enter('b');
    enter('c');
    await flush();
    expect(started).toEqual(['a']);
    releases.get('a')!();
    enter('late');
    await flush();
    expect(started).toEqual(['a', 'b']);
    releases.get('b')!();
    await flush();
    releases.get('c')!();
    await flush();
    expect(started).toEqual(['a', 'b', 'c', 'late']);
  });

  it('starts at most `rate` per period and the rest once the period has passed', async () => {
    const flow = new FlowControl();
    let clock = 0;
    const timers: { at: number; wake: () => void }[] = [];
    const wait = (ms: number) => new Promise<void>((wake) => timers.push({ at: clock + ms, wake }));
    const started: number[] = [];
    for (let i = 0; i < 5; i++) void flow.acquire('k', { rate: 2, period: 1000 }, () => clock, wait).then((release) => (started.push(i), release()));
    await flush();
    expect(started).toEqual([0, 1]);
    expect(timers.map((timer) => timer.at)).toEqual([1000]);
    clock = 1000;
    timers.shift()!.wake();
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);
    clock = 2000;
    timers.shift()!.wake();
    await flush();
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps keys apart', async () => {
    const flow = new FlowControl();
    const never = () => new Promise<void>(() => undefined);
    const started: string[] = [];
    await flow.acquire('a', { parallelism: 1, period: 1000 }, () => 0, never);
    void flow.acquire('a', { parallelism: 1, period: 1000 }, () => 0, never).then(() => started.push('a2'));
    void flow.acquire('b', { parallelism: 1, period: 1000 }, () => 0, never).then(() => started.push('b1'));
    await flush();
    expect(started).toEqual(['b1']);
  });
});
