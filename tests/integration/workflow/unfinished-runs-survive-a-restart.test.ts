// Finding 12 of issue 19: a restart lost every run. With `statePath` (`--workflow-state <file>`)
// the runs not finished yet are saved, and a server started on the same file goes on with them:
// a scheduled run is delivered at its time, a retrying one makes its next attempt.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('unfinished runs survive a restart', () => {
  const folder = mkdtempSync(join(tmpdir(), 'workflow-state-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('finding 12: scheduled and retrying runs survive a restart on the same state file', async () => {
    const statePath = join(folder, 'state.json');
    const ok = await startReceiver();
    const flaky = await startReceiver([500, 200]);
    const first = await startWorkflowServer({ timeScale: 0.001, statePath });
    const trigger = (url: string, headers: Record<string, string>) =>
      fetch(`${first.url}/v2/trigger/${url}`, { method: 'POST', headers: { authorization: `Bearer ${first.token}`, ...headers }, body: 'kept' }).then((response) => response.json() as Promise<{ workflowRunId: string }>);
    let second;
    try {
      const scheduled = await trigger(`${ok.url}/later`, { 'Upstash-Delay': '1500s', 'Upstash-Label': 'durable' });
      const retrying = await trigger(`${flaky.url}/again`, { 'Upstash-Retries': '2', 'Upstash-Retry-Delay': '1500000' });
      await flaky.waitFor(1);
      for (let i = 0; i < 100 && first.runs.get(retrying.workflowRunId)?.state !== 'retrying'; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      await first.close();
      // review: the file holds forwarded headers and bodies, so only its owner may read it.
      expect(statSync(statePath).mode & 0o777).toBe(0o600);

      second = await startWorkflowServer({ timeScale: 0.001, statePath });
      expect([second.runs.get(scheduled.workflowRunId)?.state, second.runs.get(scheduled.workflowRunId)?.labels]).toEqual(['scheduled', ['durable']]);
      expect(second.runs.get(retrying.workflowRunId)).toMatchObject({ state: 'retrying', attempts: [{ retried: 0, status: 500 }] });
      const [delivered] = await ok.waitFor(1);
      const attempts = await flaky.waitFor(2);
      expect([delivered.path, delivered.body.toString(), attempts[1].headers['upstash-retried']]).toEqual(['/later', 'kept', '1']);
      for (let i = 0; i < 100 && second.runs.activeCount() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect([second.runs.get(scheduled.workflowRunId)?.state, second.runs.get(retrying.workflowRunId)?.state]).toEqual(['succeeded', 'succeeded']);
    } finally {
      await first.close();
      await second?.close();
      await ok.close();
      await flaky.close();
    }
  });

  it('finding 12: a state file it cannot read stops the start with an error naming the file', async () => {
    const statePath = join(folder, 'broken.json');
    writeFileSync(statePath, '{"version": 7}');
    await expect(startWorkflowServer({ statePath })).rejects.toThrow(`${statePath} is not a workflow state file this version can read: unknown version`);
  });
});
