// Finding 8 of issue 19: finished runs were never dropped, every trigger counted the active ones
// by scanning all runs ever made, and the runs list had no paging. Now the oldest finished runs
// are dropped past keptFinishedRuns, the active count is kept as runs change, and the list pages.
import { startWorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('finished runs are bounded and paged', () => {
  it('finding 8: keeps the newest keptFinishedRuns finished runs, drops the oldest, and pages the list with cursor and count', async () => {
    const receiver = await startReceiver();
    const server = await startWorkflowServer({ keptFinishedRuns: 3 });
    const auth = { authorization: `Bearer ${server.token}` };
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { ...auth, 'Upstash-Workflow-RunId': `run-${i}` }, body: 'x' });
        ids.push(((await response.json()) as { workflowRunId: string }).workflowRunId);
        await receiver.waitFor(i + 1);
        for (let wait = 0; wait < 100 && server.runs.activeCount() > 0; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(server.runs.activeCount()).toBe(0);
      expect((await fetch(`${server.url}/v2/workflows/runs/run-0`, { headers: auth })).status).toBe(404);
      const list = async (query: string) => (await (await fetch(`${server.url}/v2/workflows/runs?${query}`, { headers: auth })).json()) as { runs: { workflowRunId: string }[]; cursor?: string };
      const first = await list('count=2');
      expect([first.runs.map((run) => run.workflowRunId), first.cursor]).toEqual([['run-2', 'run-3'], 'run-4']);
      const second = await list(`count=2&cursor=${first.cursor}`);
      expect([second.runs.map((run) => run.workflowRunId), second.cursor]).toEqual([['run-4'], undefined]);
      const refused = await fetch(`${server.url}/v2/workflows/runs?count=0`, { headers: auth });
      expect([refused.status, await refused.json()]).toEqual([400, { error: 'count must be a whole number from 1 to 1000' }]);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
