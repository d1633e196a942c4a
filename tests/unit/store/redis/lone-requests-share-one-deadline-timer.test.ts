// Issue 36: over redis:// each turn's commands share one deadline (store/redis/redis-command-turn.ts).
// Armed and cleared per turn, with a reaction on the turn's promises to clear it, that timer was most
// of what a lone request (one per turn, the moderate load of production servers) paid for it. One
// timer now watches the oldest turn in flight; a command still unsettled at its turn's deadline is
// rejected as before, one that settled is left alone.
// Issue 34 review: the deadline timer (armed and re-armed) is unref'd, so a request sent after close()
// does not hold the process up for up to the timeout.
import { Command } from 'ioredis';
import { CommandTurn, TIMED_OUT } from '../../../../server/src/store/redis/redis-command-turn';

const TIMEOUT_MS = 500;
/**
 * A deadline is judged in the check phase after its timer fires (store/oldest-deadline-timer.ts);
 * the fake clock runs a setImmediate that a timer scheduled on its next millisecond.
 */
const JUDGED = 1;

/** A node that holds what it is sent: the test settles it (or not). */
function heldNode() {
  const sent: Command[] = [];
  const stream = { cork: () => undefined, uncork: () => undefined };
  return { sent, target: { writesToHold: () => [stream], client: { sendCommand: (command: Command) => sent.push(command) } } };
}

const outcome = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    (value) => `answered ${String(value)}`,
    (failure: Error) => failure.message,
  );

describe('the turns of the Redis transport', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('arm one timer for 20 lone requests, each answered within its turn', async () => {
    const node = heldNode();
    const turn = new CommandTurn(node.target, TIMEOUT_MS);
    const armed = jest.spyOn(global, 'setTimeout');
    const answers: string[] = [];
    for (let request = 0; request < 20; request++) {
      const answer = outcome(turn.send(new Command('get', [`key-${request}`])));
      jest.advanceTimersByTime(0); // the turn's end (setImmediate)
      node.sent[request].resolve(`value-${request}`);
      answers.push(await answer);
      jest.advanceTimersByTime(10);
    }
    const timers = armed.mock.calls.length;
    armed.mockRestore();
    expect({ timers, last: answers[19] }).toEqual({ timers: 1, last: 'answered value-19' });
  });

  it('reject a command unsettled at its turn deadline, not one that settled, nor a later turn before its own', async () => {
    const node = heldNode();
    const turn = new CommandTurn(node.target, TIMEOUT_MS);
    const [settled, unsettled] = [outcome(turn.send(new Command('get', ['a']))), outcome(turn.send(new Command('get', ['b'])))];
    jest.advanceTimersByTime(0);
    node.sent[0].resolve('a-value');
    jest.advanceTimersByTime(300);
    const later = outcome(turn.send(new Command('get', ['c'])));
    jest.advanceTimersByTime(0);
    jest.advanceTimersByTime(TIMEOUT_MS - 300 + JUDGED);
    const laterSettledAfterTheFirstDeadline = node.sent[2].isSettled;
    jest.advanceTimersByTime(300);
    expect({ answers: await Promise.all([settled, unsettled, later]), laterSettledAfterTheFirstDeadline }).toEqual({
      answers: ['answered a-value', TIMED_OUT, TIMED_OUT],
      laterSettledAfterTheFirstDeadline: false,
    });
  });

  it('arm and re-arm a deadline timer that does not hold the process up', () => {
    const node = heldNode();
    const turn = new CommandTurn(node.target, TIMEOUT_MS);
    const armed = jest.spyOn(global, 'setTimeout');
    void outcome(turn.send(new Command('get', ['a'])));
    jest.advanceTimersByTime(300);
    void outcome(turn.send(new Command('get', ['b'])));
    jest.advanceTimersByTime(TIMEOUT_MS - 300 + JUDGED); // the first deadline: the timer is re-armed for the second
    const deadlineTimers = armed.mock.calls.flatMap(([, delay], call) => (delay === TIMEOUT_MS || delay === 300 - JUDGED ? [armed.mock.results[call].value as NodeJS.Timeout] : []));
    armed.mockRestore();
    turn.close();
    expect(deadlineTimers.map((timer) => timer.hasRef())).toEqual([false, false]);
  });
});
