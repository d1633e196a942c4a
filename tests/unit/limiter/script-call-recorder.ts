// Test support for the limiter suites: the embedded store, recording every script call a limiter
// sends as it reaches the store (EVALSHA first; EVAL only after a NOSCRIPT), so a test can assert
// which script ran on which KEYS with which ARGV.
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import { EmbeddedRequester } from '../../../server/src/store/embedded/embedded-requester';
import { fakeDateOnly } from '../../support/fake-date';

/** One EVALSHA as sent: the script's SHA, its KEYS and its ARGV. */
export type ScriptCall = readonly [sha: string, keys: string[], args: string[]];

export class ScriptCallRecorder implements Requester {
  readonly calls: ScriptCall[] = [];
  private readonly store = new EmbeddedRequester();

  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const [command, sha, numkeys, ...rest] = (request.body as unknown[]).map(String);
    if (command.toLowerCase() === 'evalsha') this.calls.push([sha, rest.slice(0, Number(numkeys)), rest.slice(Number(numkeys))]);
    return this.store.request<TResult>(request);
  }

  close(): void {
    this.store.close();
  }
}

/** For each test: Date stands at `now`, and a fresh recorder (the returned function gives it) is closed after the test. */
export function scriptCallsOfEachTest(now: number): () => ScriptCallRecorder {
  let recorder: ScriptCallRecorder | undefined;
  beforeEach(() => {
    fakeDateOnly(now);
    recorder = new ScriptCallRecorder();
  });
  afterEach(() => {
    recorder?.close();
    jest.useRealTimers();
  });
  return () => recorder!;
}
