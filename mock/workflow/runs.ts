// Workflow runs as the server keeps them, for inspection by people and tests: state, attempts with
// their status codes and times, labels and what became of the failure callback.

export type RunState = 'scheduled' | 'delivering' | 'retrying' | 'succeeded' | 'failed';

export interface Attempt {
  readonly retried: number;
  readonly startedAt: number;
  /** HTTP status, or undefined when the call failed (timeout, refused connection). */
  status?: number;
  error?: string;
}

export interface Run {
  readonly workflowRunId: string;
  readonly workflowCreatedAt: number;
  readonly messageId: string;
  readonly url: string;
  readonly method: string;
  readonly labels: readonly string[];
  readonly maxRetries: number;
  state: RunState;
  readonly attempts: Attempt[];
  nextAttemptAt?: number;
  failureCallback?: { readonly url: string; state: 'pending' | 'delivered' | 'failed'; status?: number };
}

export class RunRegistry {
  private readonly runs = new Map<string, Run>();

  get(id: string): Run | undefined {
    return this.runs.get(id);
  }

  add(run: Run): void {
    this.runs.set(run.workflowRunId, run);
  }

  /** Runs not finished yet (scheduled, delivering or retrying). */
  activeCount(): number {
    let count = 0;
    for (const run of this.runs.values()) if (run.state !== 'succeeded' && run.state !== 'failed') count++;
    return count;
  }

  list(filter: { label?: string; state?: string }): Run[] {
    return [...this.runs.values()].filter(
      (run) => (filter.label === undefined || run.labels.includes(filter.label)) && (filter.state === undefined || run.state === filter.state),
    );
  }
}
