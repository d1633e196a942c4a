// Finding 4 of issue 19: with no cap on calls at once, a batch of 1,500 runs to a slow but healthy
// receiver ran the process out of file descriptors and failed a third of them. Calls over the cap
// now wait their turn: all runs succeed and no more than the cap are ever in flight.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWorkflowServer } from '../../../mock';

describe('calls at once are capped', () => {
  it('finding 4: 60 runs to a slow receiver all succeed with at most maxConcurrentDeliveries (4) in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = createServer((request, response) => {
      inFlight++;
      most = Math.max(most, inFlight);
      request.resume();
      setTimeout(() => {
        inFlight--;
        response.end('ok');
      }, 20);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const server = await startWorkflowServer({ maxConcurrentDeliveries: 4 });
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
      const response = await fetch(`${server.url}/v2/batch/trigger`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}` },
        body: JSON.stringify(Array.from({ length: 60 }, () => ({ destination: url, headers: { 'Upstash-Retries': '0' } }))),
      });
      const ids = ((await response.json()) as { workflowRunId: string }[]).map((run) => run.workflowRunId);
      for (let i = 0; i < 200 && server.runs.activeCount() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ids.map((id) => server.runs.get(id)?.state)).toEqual(ids.map(() => 'succeeded'));
      expect(most).toBe(4);
    } finally {
      await server.close();
      slow.close();
    }
  });
});
