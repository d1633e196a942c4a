// A delivery whose answer came within the delivery timeout must count as delivered even when the
// workflow server's event loop was held past the timeout meanwhile (a long synchronous step, a full
// collection of a large heap): Node runs the due timers before the poll phase that reads the socket,
// so a timeout judged in its timer's callback (AbortSignal.timeout) aborted the attempt whose 200 was
// waiting there, and the retry delivered the run a second time. The timeout is now judged after the
// answers that came in by then are read (shared/deadline.ts). Before the fix this test printed two
// arrivals and the attempts [{ error: 'no answer within 300 ms' }, { status: 200 }]. An answer larger
// than one read (256 KiB, 1 MiB) was still cut after its first part until the timeout was judged again
// after each pass of the loop that read more of it (the review of that fix: attempts
// [{ error: 'no whole answer within 300 ms', bodyBytes: 195457 }, { status: 200 }], two arrivals).
// (The timeouts judged in their timer callback.)
import { Worker } from 'node:worker_threads';
import { startWorkflowServer } from '../../../mock';

const DELIVERY_TIMEOUT_MS = 300;

// The receiver runs on a worker thread, whose event loop the held one does not hold: it reports each
// request as it arrives and answers 200 with `bodyBytes` bytes 50 ms later, while the server's loop is held.
const receiverCode = (bodyBytes: number): string => `
const { parentPort } = require('node:worker_threads');
const server = require('node:http').createServer((request, response) => {
  request.resume();
  parentPort.postMessage('arrived');
  setTimeout(() => response.end(Buffer.alloc(${bodyBytes}, 120)), 50);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

describe('an answer that came in time while the event loop was held', () => {
  it.each([2, 262_144, 1_048_576])('of %d bytes is a delivery, made once, not a timeout and a retry', async (bodyBytes) => {
    const receiver = new Worker(receiverCode(bodyBytes), { eval: true });
    const [port] = (await new Promise((resolve) => receiver.once('message', (message) => resolve([message])))) as [number];
    let arrivals = 0;
    receiver.on('message', () => {
      arrivals++;
      // The request has left; its answer comes in while the loop is held three timeouts long.
      if (arrivals > 1) return;
      const until = Date.now() + 3 * DELIVERY_TIMEOUT_MS;
      while (Date.now() < until);
    });
    // timeScale 0.001: a retry would follow its 12 s backoff 12 ms later; the delivery timeout is not scaled.
    const server = await startWorkflowServer({ timeScale: 0.001, deliveryTimeoutMs: DELIVERY_TIMEOUT_MS });
    try {
      const response = await fetch(`${server.url}/v2/trigger/http://127.0.0.1:${port}/held`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retries': '1' }, body: 'x' });
      const { workflowRunId } = (await response.json()) as { workflowRunId: string };
      for (let i = 0; i < 200 && server.runs.activeCount() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      const run = server.runs.get(workflowRunId)!;
      expect({ state: run.state, attempts: run.attempts.map(({ retried, status, error, bodyBytes }) => ({ retried, status, error, bodyBytes })), arrivals }).toEqual({
        state: 'succeeded',
        attempts: [{ retried: 0, status: 200, error: undefined, bodyBytes }],
        arrivals: 1,
      });
    } finally {
      await server.close();
      await receiver.terminate();
    }
  });
});
