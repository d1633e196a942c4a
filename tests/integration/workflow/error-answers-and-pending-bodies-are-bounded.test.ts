// Findings 7 and 9 of issue 19: a receiver's whole error answer was held (100 MiB grew the server
// by 600 MiB, 420 MiB left the failure callback pending for ever), and nothing bounded the bodies
// held for runs not yet delivered. Now a prefix of each answer is kept with its full size, and
// bodies past the pending bound are refused with 429 (one over the body limit with 413).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('error answers and pending bodies are bounded', () => {
  it('finding 7: of a 2 MiB error answer the failure callback and run record keep keptAnswerBytes and the full size', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'e');
    const failing = createServer((request, response) => {
      request.resume();
      response.writeHead(500).end(big);
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const callback = await startReceiver();
    const server = await startWorkflowServer({ timeScale: 0.001, keptAnswerBytes: 1000 });
    try {
      const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/big`;
      const response = await fetch(`${server.url}/v2/trigger/${url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retries': '0', 'Upstash-Failure-Callback': callback.url }, body: 'x' });
      const { workflowRunId } = (await response.json()) as { workflowRunId: string };
      const [message] = await callback.waitFor(1);
      const payload = JSON.parse(message.body.toString()) as { status: number; body: string; bodySize: number };
      expect([payload.status, Buffer.from(payload.body, 'base64').equals(big.subarray(0, 1000)), payload.bodySize]).toEqual([500, true, big.length]);
      expect(server.runs.get(workflowRunId)?.attempts.map(({ status, bodyBytes }) => ({ status, bodyBytes }))).toEqual([{ status: 500, bodyBytes: big.length }]);
    } finally {
      await server.close();
      await callback.close();
      failing.close();
    }
  });

  it('finding 9: bodies of runs not yet delivered are bounded by maxPendingBodyBytes: 429 past it, room again once runs finish', async () => {
    const receiver = await startReceiver();
    const server = await startWorkflowServer({ maxPendingBodyBytes: 100, maxBodyBytes: 200 });
    const trigger = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, ...headers }, body });
    try {
      expect((await trigger('a'.repeat(60), { 'Upstash-Delay': '1h' })).status).toBe(200);
      const refused = await trigger('b'.repeat(60));
      expect([refused.status, await refused.json()]).toEqual([429, { error: 'the bodies of runs waiting for delivery would pass 100 bytes: try again when some have finished' }]);
      const batch = await fetch(`${server.url}/v2/batch/trigger`, { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: JSON.stringify([{ destination: receiver.url, body: 'c'.repeat(30) }, { destination: receiver.url, body: 'd'.repeat(30) }]) });
      expect(batch.status).toBe(429);
      expect(server.runs.activeCount()).toBe(1);
      expect((await trigger('e'.repeat(40))).status).toBe(200);
      await receiver.waitFor(1);
      for (let i = 0; i < 100 && server.runs.activeCount() > 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect((await trigger('f'.repeat(40))).status).toBe(200);
      expect((await trigger('g'.repeat(201))).status).toBe(413);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
