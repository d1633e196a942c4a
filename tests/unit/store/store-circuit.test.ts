// The circuit breaker in front of the store, on a clock the test moves: open after a transport
// failure, one probe at a time when the interval ends, the interval doubling per failed probe.
import { CIRCUIT_FIRST_INTERVAL_MS, CIRCUIT_LONGEST_INTERVAL_MS, StoreCircuit } from '../../../server/src/store/store-circuit';
import { StoreUnavailableError } from '../../../server/src/store/rest/rest-connections';

describe('the store circuit', () => {
  let clock: number;
  let circuit: StoreCircuit;
  let calls: number;
  const down = () => {
    calls++;
    return Promise.reject(new StoreUnavailableError('no answer from the key-value store within 300 ms'));
  };
  const up = () => {
    calls++;
    return Promise.resolve('answer');
  };
  const outcome = (call: () => Promise<string>) => circuit.run(call).then((value) => value, (failure: Error) => failure.message);
  beforeEach(() => {
    clock = 0;
    calls = 0;
    circuit = new StoreCircuit('the key-value store', () => clock);
  });

  it('passes calls through while the store answers', async () => {
    expect([await outcome(up), await outcome(up)]).toEqual(['answer', 'answer']);
    expect(calls).toBe(2);
  });

  it('issue 16 item 8: after a failure, refuses at once without calling the store until the interval ends', async () => {
    expect(await outcome(down)).toBe('no answer from the key-value store within 300 ms');
    clock += CIRCUIT_FIRST_INTERVAL_MS - 1;
    expect(await outcome(up)).toBe(`not calling the key-value store for up to ${CIRCUIT_FIRST_INTERVAL_MS} ms after it failed (no answer from the key-value store within 300 ms)`);
    expect(calls).toBe(1);
    clock += 1;
    expect([await outcome(up), await outcome(up)]).toEqual(['answer', 'answer']);
    expect(calls).toBe(3);
  });

  it('lets one probe at a time through, and refuses the others while it waits', async () => {
    await outcome(down);
    clock += CIRCUIT_FIRST_INTERVAL_MS;
    let answer!: (value: string) => void;
    const probe = circuit.run(() => new Promise<string>((resolve) => (answer = resolve)));
    expect(await outcome(up)).toMatch(/^not calling the key-value store/);
    answer('probe answered');
    expect(await probe).toBe('probe answered');
    expect(await outcome(up)).toBe('answer');
  });

  it('doubles the interval after each failed probe, up to its bound', async () => {
    await outcome(down);
    const intervals: number[] = [];
    let interval = CIRCUIT_FIRST_INTERVAL_MS;
    for (let probe = 0; probe < 8; probe++) {
      clock += interval;
      await outcome(down);
      interval = Number(/up to (\d+) ms/.exec(await outcome(up))![1]);
      intervals.push(interval);
    }
    expect(intervals).toEqual([200, 400, 800, 1600, 3200, CIRCUIT_LONGEST_INTERVAL_MS, CIRCUIT_LONGEST_INTERVAL_MS, CIRCUIT_LONGEST_INTERVAL_MS]);
  });

  it('stays closed on errors that are answers, not transport failures', async () => {
    expect(await outcome(() => Promise.reject(new Error('WRONGPASS invalid or missing auth token')))).toBe('WRONGPASS invalid or missing auth token');
    expect(await outcome(up)).toBe('answer');
  });
});
