// Finding 6 of issue 25: a batch of 200 runs under `rate=80, period=1s` saw more than 80 calls start
// within one period. Without a restart the limit held here (80 at most in any 1000 ms, by the
// server's startedAt and at the receiver); with `statePath` it did not: the rate's history lived in
// memory only, so a server restarted on the state file started 80 more at once, 160 in one second.
// The slots still counting down are now saved with the runs and honoured after the restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorkflowServer, type Run, type WorkflowServer } from '../../../mock';
import { mostInOnePeriod } from '../../support/most-in-one-period';
import { startReceiver } from './receiver';

const allRuns = (server: WorkflowServer): Run[] => server.runs.list({}, { count: 1000 }).runs;

describe('the flow-control rate holds per period, across a restart too', () => {
  const folder = mkdtempSync(join(tmpdir(), 'workflow-rate-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('starts at most 80 of 200 runs under rate=80, period=1s in any one second, by the recorded startedAt, even across a restart on the state file', async () => {
    const statePath = join(folder, 'state.json');
    const receiver = await startReceiver();
    const first = await startWorkflowServer({ statePath });
    let second: WorkflowServer | undefined;
    try {
      const headers = { 'Upstash-Flow-Control-Key': 'rated', 'Upstash-Flow-Control-Value': 'rate=80, period=1s' };
      const batch = Array.from({ length: 200 }, (_, index) => ({ destination: `${receiver.url}/${index}`, body: 'x', headers }));
      const answer = await fetch(`${first.url}/v2/batch/trigger`, { method: 'POST', headers: { authorization: `Bearer ${first.token}` }, body: JSON.stringify(batch) });
      expect(answer.status).toBe(201);
      await receiver.waitFor(80);
      for (let i = 0; i < 100 && allRuns(first).filter((run) => run.state === 'succeeded').length < 80; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      await first.close();
      second = await startWorkflowServer({ statePath });
      for (let i = 0; i < 1000 && second.runs.activeCount() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));

      // A restored run carries its attempts from before the restart, so the second server's record wins.
      const attempts = new Map<string, Run['attempts']>();
      for (const run of [...allRuns(first), ...allRuns(second)]) attempts.set(run.workflowRunId, run.attempts);
      const startedAt = [...attempts.values()].flatMap((runAttempts) => runAttempts.map((attempt) => attempt.startedAt));
      expect([attempts.size, allRuns(second).every((run) => run.state === 'succeeded'), mostInOnePeriod(startedAt, 1000)]).toEqual([200, true, 80]);
    } finally {
      await first.close();
      await second?.close();
      await receiver.close();
    }
  });
});
