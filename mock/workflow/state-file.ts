// Durable state, when asked for (`statePath`, `--workflow-state <file>`): the runs not finished yet
// (scheduled, retrying, delivering, or with a failure callback under way), each with its request
// and last answer, so a restarted server goes on delivering them, and flow control's rate slots still
// counting down, so the restarted server starts no more calls per period than the rate allows.
// Finished runs are not kept.
//
// The whole file is rewritten (to a temporary file, then renamed, so a crash never leaves half a
// file) at most once per SAVE_INTERVAL_MS after a change, and on close: a crash loses at most the
// last interval's changes, and a run that was being delivered then is delivered again (at least
// once, as on the platform). Writing costs time in proportion to the pending bodies, which
// `maxPendingBodyBytes` bounds.
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { Answer, DeliveryProgress } from './delivery';
import type { RateSlots } from './flow-control';
import { parseRetryDelay } from './retry-delay';
import type { Run } from './runs';
import type { RunRequest } from './trigger-request';

export const SAVE_INTERVAL_MS = 1000;

export interface ActiveRun {
  readonly run: Run;
  readonly request: RunRequest;
  readonly progress: DeliveryProgress;
}

/** What a state file holds, and what a server starts from. */
export interface SavedState {
  readonly runs: Iterable<ActiveRun>;
  readonly rateSlots: readonly RateSlots[];
}

interface SavedAnswer extends Omit<Answer, 'body'> {
  readonly body: string;
}

interface SavedRun {
  readonly run: Run;
  readonly request: Omit<RunRequest, 'body' | 'retryDelay'> & { readonly body: string };
  readonly lastAnswer?: SavedAnswer;
}

interface StateFile {
  readonly version: 1;
  readonly runs: SavedRun[];
  /** Absent from files written before it was saved. */
  readonly rateSlots?: RateSlots[];
}

function save({ run, request, progress }: ActiveRun): SavedRun {
  const { body, retryDelay: _compiled, ...plain } = request;
  const last = progress.lastAnswer;
  return { run, request: { ...plain, body: body.toString('base64') }, lastAnswer: last && { ...last, body: last.body.toString('base64') } };
}

function restore(saved: SavedRun): ActiveRun {
  const { body, ...plain } = saved.request;
  const request: RunRequest = {
    ...plain,
    body: Buffer.from(body, 'base64'),
    retryDelay: plain.retryDelayExpression === undefined ? undefined : parseRetryDelay(plain.retryDelayExpression),
  };
  const run = saved.run;
  // An attempt under way when the server stopped got no answer: it counts, and the next one follows.
  for (const attempt of run.attempts) if (attempt.status === undefined && attempt.error === undefined) attempt.error = 'interrupted by a restart of the server';
  const last = saved.lastAnswer;
  return { run, request, progress: { lastAnswer: last && { ...last, body: Buffer.from(last.body, 'base64') } } };
}

function isRateSlots(saved: unknown): saved is RateSlots[] {
  return Array.isArray(saved) && saved.every((entry: Partial<RateSlots> | null) => typeof entry?.key === 'string' && Array.isArray(entry.freeAt) && entry.freeAt.every(Number.isFinite));
}

/** The state saved in `path`; nothing when the file does not exist yet. */
export function loadState(path: string): { runs: ActiveRun[]; rateSlots: readonly RateSlots[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (failure) {
    if ((failure as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], rateSlots: [] };
    throw failure;
  }
  try {
    const state = JSON.parse(text) as StateFile;
    if (state.version !== 1 || !Array.isArray(state.runs)) throw new Error('unknown version');
    const rateSlots = state.rateSlots ?? [];
    if (!isRateSlots(rateSlots)) throw new Error('rateSlots is not a list of {key, freeAt}');
    return { runs: state.runs.map(restore), rateSlots };
  } catch (failure) {
    throw new Error(`${path} is not a workflow state file this version can read: ${(failure as Error).message}`, { cause: failure });
  }
}

/** Saves `read()` after changes, at most once per interval, and once more on close(). */
export class StateWriter {
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly read: () => SavedState,
  ) {}

  changed(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // The runs go on in memory; the next change tries again.
      this.write().catch((failure: unknown) => console.error(`workflow server: could not save its state to ${this.path}: ${(failure as Error).message}`));
    }, SAVE_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Writes the state as it is now and writes no more: runs cut short by the server closing end
   * their deliveries afterwards, and must stay in the file as they were.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }

  private write(): Promise<void> {
    this.writing = this.writing.catch(() => undefined).then(async () => {
      const { runs, rateSlots } = this.read();
      const state: StateFile = { version: 1, runs: [...runs].map(save), rateSlots: [...rateSlots] };
      const temporary = `${this.path}.${process.pid}.tmp`;
      // Owner-only: it holds forwarded headers (an Authorization, say) and bodies.
      await writeFile(temporary, JSON.stringify(state), { mode: 0o600 });
      await rename(temporary, this.path);
    });
    return this.writing;
  }
}
