// The two waiting primitives of deliveries: LongTimers holds waits past setTimeout's 24.8-day limit
// as a chain of timers, one armed at a time, and cancels them all on close; DeliverySlots hands
// freed slots to the oldest waiter and ignores a second release of the same slot.
import { DeliverySlots } from '../../../mock/workflow/delivery-slots';
import { LongTimers, MAX_TIMER_MS } from '../../../mock/workflow/long-timers';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('LongTimers', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('resolves a 60-day wait at its end, never before, with one timer armed at a time', async () => {
    const timers = new LongTimers();
    let done = false;
    void timers.wait(60 * 86_400_000).then(() => (done = true));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(MAX_TIMER_MS * 2);
    await flush();
    expect([done, jest.getTimerCount()]).toEqual([false, 1]);
    jest.advanceTimersByTime(60 * 86_400_000 - MAX_TIMER_MS * 2 - 1);
    await flush();
    expect(done).toBe(false);
    jest.advanceTimersByTime(1);
    await flush();
    expect([done, jest.getTimerCount()]).toEqual([true, 0]);
  });

  it('cancels every pending wait on close, and later waits never resolve', async () => {
    const timers = new LongTimers();
    let resolved = 0;
    void timers.wait(1000).then(() => resolved++);
    void timers.wait(40 * 86_400_000).then(() => resolved++);
    timers.close();
    void timers.wait(0).then(() => resolved++);
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(50 * 86_400_000);
    await flush();
    expect(resolved).toBe(0);
  });
});

describe('DeliverySlots', () => {
  it('hands a freed slot to the oldest waiter, and a second release of one slot frees nothing more', async () => {
    const slots = new DeliverySlots(1);
    const order: string[] = [];
    const first = await slots.acquire();
    const waiters = ['b', 'c'].map((name) => slots.acquire().then((release) => (order.push(name), release)));
    await flush();
    expect(order).toEqual([]);
    first();
    first();
    await flush();
    expect(order).toEqual(['b']);
    (await waiters[0])();
    await flush();
    expect(order).toEqual(['b', 'c']);
  });
});
