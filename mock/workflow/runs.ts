// Workflow runs as the server keeps them, for inspection by people and tests: state, attempts with
// their status codes and times, labels and what became of the failure callback.
//
// Bounded: a run is active from its trigger until its delivery and failure callback are over
// (counted as it changes, never by scanning), then finished. At most `keptFinishedRuns` finished
// runs are kept; past that the oldest finished one is dropped and answers 404 from then on.

export type RunState = 'scheduled' | 'delivering' | 'retrying' | 'succeeded' | 'failed';

export interface Attempt {
  readonly retried: number;
  readonly startedAt: number;
  /** HTTP status, or undefined when the call failed (timeout, refused connection). */
  status?: number;
  error?: string;
  /** Size of the whole answer body; only a prefix of it is kept. */
  bodyBytes?: number;
}

export interface Run {
  readonly workflowRunId: string;
  readonly workflowCreatedAt: number;
  readonly messageId: string;
  readonly url: string;
  readonly method: string;
  readonly labels: readonly string[];
  readonly maxRetries: number;
  /** Upstash-Deduplication-Id, or the content digest: a trigger with the same one answers this run. */
  readonly deduplicationId?: string;
  state: RunState;
  readonly attempts: Attempt[];
  nextAttemptAt?: number;
  failureCallback?: { readonly url: string; state: 'pending' | 'delivered' | 'failed'; status?: number };
}

export interface RunPage {
  readonly runs: Run[];
  /** Give it back as `cursor` for the next page; absent on the last page. */
  readonly cursor?: string;
}

export class RunRegistry {
  /** Every kept run by id, oldest trigger first (a Map keeps insertion order). */
  private readonly runs = new Map<string, Run>();
  /** Finished runs by id, oldest finish first: the eviction order. */
  private readonly finished = new Set<string>();
  /** Deduplication id -> run id, for kept runs only: dropping a run forgets its id too. */
  private readonly byDeduplicationId = new Map<string, string>();
  private active = 0;

  constructor(private readonly keptFinishedRuns: number) {}

  get(id: string): Run | undefined {
    return this.runs.get(id);
  }

  /** The kept run a trigger repeats: same run id, or same deduplication id. */
  existing(runId: string | undefined, deduplicationId: string | undefined): Run | undefined {
    const byRunId = runId === undefined ? undefined : this.runs.get(runId);
    if (byRunId || deduplicationId === undefined) return byRunId;
    const id = this.byDeduplicationId.get(deduplicationId);
    return id === undefined ? undefined : this.runs.get(id);
  }

  add(run: Run): void {
    this.runs.set(run.workflowRunId, run);
    if (run.deduplicationId !== undefined) this.byDeduplicationId.set(run.deduplicationId, run.workflowRunId);
    this.active++;
  }

  /** Called once per run, when nothing more will happen to it. */
  finish(run: Run): void {
    if (!this.runs.has(run.workflowRunId) || this.finished.has(run.workflowRunId)) return;
    this.active--;
    this.finished.add(run.workflowRunId);
    while (this.finished.size > this.keptFinishedRuns) {
      const oldest = this.finished.values().next().value as string;
      const dropped = this.runs.get(oldest);
      this.finished.delete(oldest);
      this.runs.delete(oldest);
      if (dropped?.deduplicationId !== undefined && this.byDeduplicationId.get(dropped.deduplicationId) === oldest) this.byDeduplicationId.delete(dropped.deduplicationId);
    }
  }

  /** Runs not finished yet (scheduled, delivering, retrying, or with a failure callback under way). */
  activeCount(): number {
    return this.active;
  }

  /**
   * Runs in trigger order, `count` at a time. The cursor is the id of the first run of the next
   * page; if that run was dropped meanwhile the listing starts again from the oldest kept run.
   * Without a count, every kept run that matches (a bounded number).
   */
  list(filter: { label?: string; state?: string }, page: { cursor?: string; count?: number } = {}): RunPage {
    const runs: Run[] = [];
    let started = page.cursor === undefined || !this.runs.has(page.cursor);
    for (const [id, run] of this.runs) {
      if (!started) {
        if (id !== page.cursor) continue;
        started = true;
      }
      if ((filter.label !== undefined && !run.labels.includes(filter.label)) || (filter.state !== undefined && run.state !== filter.state)) continue;
      if (runs.length === page.count) return { runs, cursor: id };
      runs.push(run);
    }
    return { runs };
  }
}
