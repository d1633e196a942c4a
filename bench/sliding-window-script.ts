// The exact EVAL that @upstash/ratelimit's sliding window sends (script text, keys, arguments),
// captured by running its limiter once against a recording transport that answers EVALSHA with
// NOSCRIPT, the way a fresh store would. The KV benchmark replays it as EVALSHA.
import { Ratelimit } from '@upstash/ratelimit';
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import { scriptSha } from '../shared/script-shebang';

export interface ScriptCall {
  readonly script: string;
  readonly sha: string;
  /** `numkeys key... arg...`, as strings, after the script or SHA. */
  readonly rest: readonly string[];
}

export async function captureSlidingWindowCall(tokens: number): Promise<ScriptCall> {
  const sent: unknown[][] = [];
  const recorder: Requester = {
    async request<TResult>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
      const command = request.body as unknown[];
      sent.push(command);
      if (String(command[0]).toLowerCase() === 'evalsha') return { error: 'NOSCRIPT No matching script.' } as UpstashResponse<TResult>;
      return { result: [tokens - 1, tokens] as TResult };
    },
  };
  const limiter = new Ratelimit({ redis: new Redis(recorder), limiter: Ratelimit.slidingWindow(tokens, '1 m'), prefix: 'bench-kv', ephemeralCache: false, timeout: 0 });
  await limiter.limit('caller');
  const evalCommand = sent.find((command) => String(command[0]).toLowerCase() === 'eval');
  if (!evalCommand) throw new Error(`@upstash/ratelimit sent no EVAL (sent: ${sent.map((command) => command[0]).join(', ')})`);
  const script = String(evalCommand[1]);
  return { script, sha: scriptSha(script), rest: evalCommand.slice(2).map(String) };
}
