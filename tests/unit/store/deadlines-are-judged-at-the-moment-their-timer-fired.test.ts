// The deadlines of the store transports (store/oldest-deadline-timer.ts on shared/deadline.ts) are
// judged after the replies that came in by the time their timer fired are read, and against that
// moment: a call that fell due while the app held the event loop after the timer fired (a handler
// in that turn's poll or check phase) is judged at a later turn, once a poll phase has read its
// reply, not failed as an outage (stop 42 review, MED-2). And a transport closed
// between a timer's firing and its judgement keeps one timer for what it watches next (LOW-6).
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { OldestDeadlineTimer } from '../../../server/src/store/oldest-deadline-timer';

const TIMEOUT_MS = 200;

interface Call {
  readonly name: string;
  settled: boolean;
}

describe('a deadline timer over calls in flight', () => {
  let server: Server;
  let receiver: Socket;
  let sender: Socket;
  beforeAll(async () => {
    server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const accepted = once(server, 'connection');
    receiver = connect((server.address() as AddressInfo).port, '127.0.0.1');
    [sender] = (await accepted) as [Socket];
  });
  afterAll(async () => {
    receiver.destroy();
    sender.destroy();
    server.close();
    await once(server, 'close');
  });

  it('fails a later call whose reply came in while the loop was held before the judgement only if it is still unanswered when read', async () => {
    const first: Call = { name: 'first', settled: false };
    const later: Call = { name: 'later', settled: false };
    const expired: string[] = [];
    // The later call's reply: bytes that reach this process while the loop is held, read by its next poll phase.
    receiver.once('data', () => (later.settled = true));
    // Armed before the deadline timer for the same moment, so it fires first in the same timers
    // phase: its immediate, queued first, holds the loop past the later call's deadline between the
    // timer's firing and its judgement, while the later call's reply comes in.
    setTimeout(() => {
      setImmediate(() => {
        sender.write('reply to the later call');
        const until = performance.now() + TIMEOUT_MS;
        while (performance.now() < until);
      });
    }, TIMEOUT_MS);
    const deadlines = new OldestDeadlineTimer<Call>(TIMEOUT_MS, (call) => call.settled, (call) => expired.push(call.name));
    deadlines.watch(first);
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 2));
    deadlines.watch(later);
    await new Promise((resolve) => setTimeout(resolve, 3 * TIMEOUT_MS));
    deadlines.stop();
    expect({ expired, laterAnswered: later.settled }).toEqual({ expired: ['first'], laterAnswered: true });
  });
});

describe('a deadline timer stopped between its firing and its judgement', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps one timer for what it watches next, and expires it once', () => {
    const expired: string[] = [];
    const deadlines = new OldestDeadlineTimer<Call>(TIMEOUT_MS, (call) => call.settled, (call) => expired.push(call.name));
    const armed = jest.spyOn(global, 'setTimeout');
    deadlines.watch({ name: 'before the close', settled: false });
    jest.advanceTimersByTime(TIMEOUT_MS); // fired; its judgement waits for the check phase
    deadlines.stop();
    deadlines.watch({ name: 'after the close', settled: false });
    jest.advanceTimersByTime(3 * TIMEOUT_MS);
    const timers = armed.mock.calls.length;
    armed.mockRestore();
    deadlines.stop();
    expect({ timers, expired }).toEqual({ timers: 2, expired: ['after the close'] });
  });
});
