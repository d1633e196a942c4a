// Scripts on Redis 7.0 as clients send them: texts whose `#!lua flags=` line Redis 7.0 refuses
// (allow-key-locking, from @upstash/ratelimit 2.1+) are rewritten, and the client's SHA (of the text
// as sent) is mapped to the rewritten text: EVALSHA of it runs the rewritten text (EVAL, which Redis
// caches), and SCRIPT LOAD/EXISTS answer with the original SHA, as if Redis had taken the original.
import type { Reply } from '../reply';
import { scriptForRedis70, scriptSha } from '../script-shebang';

export class ScriptRewrites {
  /** sha1(text as sent) -> the text Redis runs, for rewritten scripts only. */
  private readonly rewritten = new Map<string, string>();

  /** The command to send to Redis instead of `args`, for the scripting commands; others unchanged. */
  translate(args: readonly string[]): readonly string[] {
    const name = args[0].toLowerCase();
    if (name === 'eval' || name === 'eval_ro') return [args[0], this.remember(args[1]), ...args.slice(2)];
    if (name === 'evalsha' || name === 'evalsha_ro') {
      const text = this.rewritten.get(args[1].toLowerCase());
      return text === undefined ? args : [name === 'evalsha' ? 'EVAL' : 'EVAL_RO', text, ...args.slice(2)];
    }
    if (name === 'script' && args[1]?.toLowerCase() === 'load' && args.length === 3) return [args[0], args[1], this.remember(args[2])];
    if (name === 'script' && args[1]?.toLowerCase() === 'exists') {
      return [args[0], args[1], ...args.slice(2).map((sha) => {
        const text = this.rewritten.get(sha.toLowerCase());
        return text === undefined ? sha : scriptSha(text);
      })];
    }
    return args;
  }

  /** Redis's answer to a translated command, as the client expects it (SCRIPT LOAD: the original SHA). */
  answer(args: readonly string[], reply: Reply): Reply {
    const name = args[0].toLowerCase();
    if (name === 'script' && args[1]?.toLowerCase() === 'load' && args.length === 3 && reply.kind === 'bulk') return { kind: 'bulk', value: scriptSha(args[2]) };
    if (name === 'script' && args[1]?.toLowerCase() === 'flush' && reply.kind === 'simple') this.rewritten.clear();
    return reply;
  }

  private remember(text: string): string {
    const rewritten = scriptForRedis70(text);
    if (rewritten !== text) this.rewritten.set(scriptSha(text), rewritten);
    return rewritten;
  }
}
