// Finding 7 of issue 25: a receiver that sent its headers at once and then one byte every 50 ms for
// 3 s, under a 500 ms delivery timeout, made the run succeed after one attempt: the timeout ended
// the body's reading, the half-read body was kept, and the 200 counted. The timeout now covers the
// whole exchange, the last body byte included, and an answer cut short by it is a failed attempt.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

/** Answers 200 with its headers at once, then one byte every 50 ms for 3 s (60 bytes in all). */
async function startDrippingReceiver(): Promise<{ url: string; arrivals: () => number; close: () => Promise<void> }> {
  let arrivals = 0;
  const server = createServer((request, response) => {
    arrivals++;
    request.resume();
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.flushHeaders();
    let sent = 0;
    const drip = setInterval(() => {
      response.write('x');
      if (++sent === 60) response.end();
    }, 50);
    response.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/drip`,
    arrivals: () => arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the delivery timeout covers a dripping answer', () => {
  it('fails and retries an attempt whose 200 answer is still dripping when the timeout ends, keeping at most keptAnswerBytes of it', async () => {
    const receiver = await startDrippingReceiver();
    const callback = await startReceiver();
    // timeScale 0.001: the 12 s backoff before the retry is 12 ms; the delivery timeout is not scaled.
    const server = await startWorkflowServer({ timeScale: 0.001, deliveryTimeoutMs: 500, keptAnswerBytes: 4 });
    try {
      const response = await fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retries': '1', 'Upstash-Failure-Callback': callback.url }, body: 'x' });
      const { workflowRunId } = (await response.json()) as { workflowRunId: string };
      for (let i = 0; i < 200 && server.runs.activeCount() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      const run = server.runs.get(workflowRunId)!;
      expect({ state: run.state, attempts: run.attempts.map(({ retried, status, error }) => ({ retried, status, error })), arrivals: receiver.arrivals() }).toEqual({
        state: 'failed',
        attempts: [
          { retried: 0, status: undefined, error: 'no whole answer within 500 ms' },
          { retried: 1, status: undefined, error: 'no whole answer within 500 ms' },
        ],
        arrivals: 2,
      });
      // At 50 ms a byte, about 10 bytes came before each timeout: all counted, 4 kept for the callback.
      const [message] = await callback.waitFor(1);
      const payload = JSON.parse(message.body.toString()) as { status: number; body: string; bodySize: number };
      expect([payload.status, Buffer.from(payload.body, 'base64').toString()]).toEqual([0, 'xxxx']);
      expect(run.attempts.every(({ bodyBytes }) => bodyBytes! > 4 && bodyBytes! < 60)).toBe(true);
    } finally {
      await server.close();
      await receiver.close();
      await callback.close();
    }
  });
});
