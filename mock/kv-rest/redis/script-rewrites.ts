// Scripts as clients send them, and the texts Redis runs instead: every script is guarded (see
// script-guard.ts) and flags of its `#!lua flags=` line that Redis 7.0 refuses (allow-key-locking,
// from @upstash/ratelimit 2.1+) are dropped. The client's SHA (of the text as sent) is mapped to
// the rewritten text: EVALSHA of it runs the rewritten text (by its own SHA once Redis has it
// cached, else by EVAL of the text), SCRIPT LOAD/EXISTS answer with the original SHA and error
// texts name it, as if Redis had taken the original.
import { error, type Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import { parseShebang, REDIS_70_SCRIPT_FLAGS, scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import { guardScript, restoreScriptError } from './script-guard';

/**
 * Scripts remembered at most; the oldest is forgotten first. EVALSHA of a forgotten script answers
 * NOSCRIPT and clients send its text again, so the bound costs a retry, never a wrong answer.
 */
export const MAX_REMEMBERED_SCRIPTS = 10_000;

/** Flags of newer Redis versions that only tune them: dropped for Redis 7.0. Any other flag Redis 7.0 does not know is refused by Redis, as it would be anyway. */
const NEWER_REDIS_FLAGS = new Set(['allow-key-locking']);

/** The text with only newer Redis versions' flags dropped; unchanged when a flag is unknown to every version. */
function withFlagsForRedis70(text: string): string {
  const parsed = parseShebang(text);
  const unknown = parsed.ok && parsed.script.flags.some((flag) => !REDIS_70_SCRIPT_FLAGS.has(flag) && !NEWER_REDIS_FLAGS.has(flag));
  return unknown ? text : scriptForRedis70(text);
}

interface Rewritten {
  /** The text Redis runs, and its SHA. */
  readonly text: string;
  readonly sha: string;
  /** Whether Redis has taken the text (so EVALSHA of `sha` runs it) since we last heard otherwise. */
  cachedByRedis: boolean;
}

export class ScriptRewrites {
  /** sha1(text as sent) -> what Redis runs instead, oldest first. */
  private readonly rewritten = new Map<string, Rewritten>();

  /** The arguments to send to Redis instead of the command's, for the scripting commands; others unchanged. */
  translate({ args, spec }: ResolvedCommand): readonly string[] {
    switch (spec.name) {
      case 'eval':
      case 'eval_ro':
        return [args[0], this.remember(args[1]), ...args.slice(2)];
      case 'evalsha':
      case 'evalsha_ro': {
        const script = this.rewritten.get(args[1].toLowerCase());
        if (script === undefined) return args;
        // By SHA when Redis has the text: no need to send (and have Redis hash) the whole script again.
        return script.cachedByRedis ? [args[0], script.sha, ...args.slice(2)] : [spec.name === 'evalsha' ? 'EVAL' : 'EVAL_RO', script.text, ...args.slice(2)];
      }
      case 'script|load':
        return [args[0], args[1], this.remember(args[2])];
      case 'script|exists':
        return [args[0], args[1], ...args.slice(2).map((sha) => this.rewritten.get(sha.toLowerCase())?.sha ?? sha)];
      default:
        return args;
    }
  }

  /**
   * Redis's answer to a translated command, as the client expects it (SCRIPT LOAD: the original SHA).
   * A rewritten script that ran or loaded is cached by Redis from then on. NOSCRIPT for its SHA means
   * Redis lost it (SCRIPT FLUSH from elsewhere, a restart): the rewrite is forgotten too, so EVALSHA
   * answers NOSCRIPT until the client sends the text again, as on Redis.
   */
  answer({ args, spec }: ResolvedCommand, reply: Reply): Reply {
    const isRun = runsScript({ args, spec });
    const isLoad = spec.name === 'script|load';
    if (isRun || isLoad) this.learn(scriptShaOf(spec.name, args), reply);
    if (isLoad && reply.kind === 'bulk') return { kind: 'bulk', value: scriptSha(args[2]) };
    if (spec.name === 'script|flush' && reply.kind === 'simple') this.rewritten.clear();
    if (isRun && reply.kind === 'error') return error(restoreScriptError(reply.message, scriptShaOf(spec.name, args)));
    return reply;
  }

  /** What a reply to a rewritten script's command says about Redis's script cache. */
  private learn(sha: string, reply: Reply): void {
    const script = this.rewritten.get(sha);
    if (!script) return;
    if (reply.kind !== 'error') script.cachedByRedis = true;
    else if (script.cachedByRedis && reply.message.startsWith('NOSCRIPT')) this.rewritten.delete(sha);
  }

  private remember(text: string): string {
    const sha = scriptSha(text);
    const known = this.rewritten.get(sha);
    if (known) return known.text;
    const rewritten = guardScript(withFlagsForRedis70(text));
    if (this.rewritten.size >= MAX_REMEMBERED_SCRIPTS) this.rewritten.delete(this.rewritten.keys().next().value as string);
    this.rewritten.set(sha, { text: rewritten, sha: scriptSha(rewritten), cachedByRedis: false });
    return rewritten;
  }
}

/** Whether a command runs a script by its text or SHA: EVAL, EVALSHA and their read-only forms. */
export function runsScript({ spec }: ResolvedCommand): boolean {
  return spec.name.startsWith('eval');
}

/** The client's SHA of the script a scripting command (by its table name) names or carries. */
function scriptShaOf(name: string, args: readonly string[]): string {
  if (name === 'evalsha' || name === 'evalsha_ro') return args[1].toLowerCase();
  return scriptSha(name === 'script|load' ? args[2] : args[1]);
}
