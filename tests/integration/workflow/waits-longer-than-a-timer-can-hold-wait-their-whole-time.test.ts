// Findings 1 and 2 of issue 19: waits longer than setTimeout can hold (2^31-1 ms, 24.8 days) fired
// at once, and a flow-control period that long re-armed 1 ms timers for ever. Driven by jest's fake
// clock (setTimeout and Date only; real sockets keep running), so a month passes in milliseconds.
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { settle, useFakeClockWithRealSockets } from './fake-clock';
import { startReceiver, type Receiver } from './receiver';

const DAY = 86_400_000;

describe('waits longer than a timer can hold wait their whole time', () => {
  let server: WorkflowServer;
  let receiver: Receiver;
  const trigger = (headers: Record<string, string>, target = server) =>
    fetch(`${target.url}/v2/trigger/${receiver.url}/long`, { method: 'POST', headers: { authorization: `Bearer ${target.token}`, ...headers }, body: 'x' });

  beforeEach(async () => {
    useFakeClockWithRealSockets();
    server = await startWorkflowServer();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    jest.useRealTimers();
    await receiver.close();
    await server.close();
  });

  it('finding 1: a Delay of 30 days is held for 30 days, not delivered at once', async () => {
    expect((await trigger({ 'Upstash-Delay': '30d' })).status).toBe(200);
    jest.advanceTimersByTime(29 * DAY);
    await settle();
    expect(receiver.deliveries).toHaveLength(0);
    jest.advanceTimersByTime(DAY);
    await receiver.waitFor(1);
    expect(receiver.deliveries.map((delivery) => delivery.path)).toEqual(['/long']);
  });

  it('finding 1: a Delay of 365 days and a Not-Before 30 days ahead wait their whole time', async () => {
    await trigger({ 'Upstash-Delay': '365d' });
    await trigger({ 'Upstash-Not-Before': String(Math.floor((Date.now() + 30 * DAY) / 1000)) });
    jest.advanceTimersByTime(30 * DAY - 1000);
    await settle();
    expect(receiver.deliveries).toHaveLength(0);
    jest.advanceTimersByTime(1000);
    await receiver.waitFor(1);
    jest.advanceTimersByTime(334 * DAY);
    await settle();
    expect(receiver.deliveries).toHaveLength(1);
    jest.advanceTimersByTime(DAY);
    await receiver.waitFor(2);
  });

  it('finding 1: a Delay or Not-Before beyond 365 days answers 400 naming the bound', async () => {
    const tooFar: Record<string, string>[] = [{ 'Upstash-Delay': '366d' }, { 'Upstash-Not-Before': String(Math.floor((Date.now() + 400 * DAY) / 1000)) }, { 'Upstash-Delay': '9'.repeat(30) + 'd' }];
    for (const headers of tooFar) {
      const response = await trigger(headers);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/365d/);
    }
  });

  it('finding 2: a flow-control period of 30 days holds the next delivery that long without spinning timers', async () => {
    const headers = { 'Upstash-Flow-Control-Key': 'monthly', 'Upstash-Flow-Control-Value': 'rate=1, period=30d' };
    await trigger(headers);
    await trigger(headers);
    await receiver.waitFor(1);
    await settle();
    const armed = jest.spyOn(global, 'setTimeout');
    jest.advanceTimersByTime(10_000);
    await settle();
    expect(armed.mock.calls.length).toBeLessThanOrEqual(1);
    armed.mockRestore();
    jest.advanceTimersByTime(29 * DAY);
    await settle();
    expect(receiver.deliveries).toHaveLength(1);
    jest.advanceTimersByTime(DAY);
    await receiver.waitFor(2);
  });

  it('finding 2: the flow-control period is scaled by the time scale, and refused beyond 365 days', async () => {
    const scaled = await startWorkflowServer({ timeScale: 0.001 });
    try {
      const headers = { 'Upstash-Flow-Control-Key': 'scaled', 'Upstash-Flow-Control-Value': 'rate=1, period=1000s' };
      await trigger(headers, scaled);
      await trigger(headers, scaled);
      await receiver.waitFor(1);
      jest.advanceTimersByTime(990);
      await settle();
      expect(receiver.deliveries).toHaveLength(1);
      jest.advanceTimersByTime(20);
      await receiver.waitFor(2);
      const refused = await trigger({ 'Upstash-Flow-Control-Key': 'k', 'Upstash-Flow-Control-Value': 'rate=1, period=366d' }, scaled);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: 'Upstash-Flow-Control-Value: period must be at most 365d' });
    } finally {
      await scaled.close();
    }
  });
});
