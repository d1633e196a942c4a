// Finding 10 of issue 19: 301/302/303 were followed (the POST became a body-less GET, the run was
// marked succeeded with the landing page's 200, and the signature went to another origin) while
// 307/308 failed with "fetch failed". One policy now: a 3xx is a failed attempt with its status.
import { startWorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('redirects are not followed', () => {
  it.each([301, 302, 303, 307, 308])('finding 10: a %i is a failed attempt with that status, and the other origin gets nothing', async (status) => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver([status], { location: `${elsewhere.url}/landing` });
    const server = await startWorkflowServer({ timeScale: 0.001 });
    try {
      const response = await fetch(`${server.url}/v2/trigger/${redirecting.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retries': '1', 'Upstash-Retry-Delay': '1' }, body: 'x' });
      const { workflowRunId } = (await response.json()) as { workflowRunId: string };
      await redirecting.waitFor(2);
      for (let i = 0; i < 100 && server.runs.get(workflowRunId)?.state !== 'failed'; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      const run = server.runs.get(workflowRunId);
      expect([run?.state, run?.attempts.map((attempt) => attempt.status)]).toEqual(['failed', [status, status]]);
      expect(elsewhere.deliveries).toEqual([]);
    } finally {
      await server.close();
      await redirecting.close();
      await elsewhere.close();
    }
  });
});
