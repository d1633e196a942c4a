// Scripts as clients send them, and the texts Redis runs instead: every script is guarded (see
// script-guard.ts) and flags of its `#!lua flags=` line that Redis 7.0 refuses (allow-key-locking,
// from @upstash/ratelimit 2.1+) are dropped. EVALSHA of the client's SHA (of the text as sent) runs
// the rewritten text by its own SHA, SCRIPT LOAD/EXISTS answer with the original SHA and error texts
// name it, as if Redis had taken the original. Redis decides whether a script is loaded (its script
// cache holds the rewritten texts); which rewritten SHA stands for a client's SHA is found from the
// texts every gateway files in Redis (gateway-store.ts), so a script loaded through one REST server
// runs through all of them. What a server remembers here is only a cache of that: a rewrite is a
// function of the text.
import { error, type Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import { parseShebang, REDIS_70_SCRIPT_FLAGS, scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import type { GatewayStore } from './gateway-store';
import { guardScript, restoreScriptError } from './script-guard';

/** Rewrites cached at most; the oldest is forgotten first, and found again in Redis when asked for. */
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
}

export class ScriptRewrites {
  /** sha1(text as sent) -> what Redis runs instead, oldest first. */
  private readonly rewritten = new Map<string, Rewritten>();

  constructor(private readonly store: Pick<GatewayStore, 'findScripts' | 'storeScripts' | 'forgetScripts'>) {}

  /**
   * Before translate(): finds in Redis the texts of the SHAs that EVALSHA and SCRIPT EXISTS name
   * and this server has not seen, and files the texts that EVAL and SCRIPT LOAD carry (resolving
   * once they are filed, so a client told a SHA may use it on any server at once).
   */
  async prepare(commands: readonly ResolvedCommand[]): Promise<void> {
    const unknown = new Set<string>();
    const carried = new Map<string, string>();
    for (const { args, spec } of commands) {
      if (spec.name === 'evalsha' || spec.name === 'evalsha_ro') unknown.add(args[1].toLowerCase());
      else if (spec.name === 'script|exists') for (const sha of args.slice(2)) unknown.add(sha.toLowerCase());
      else if (carriesScript({ args, spec })) {
        const text = spec.name === 'script|load' ? args[2] : args[1];
        carried.set(scriptSha(text), text);
      }
    }
    for (const sha of unknown) if (this.rewritten.has(sha) || carried.has(sha)) unknown.delete(sha);
    if (unknown.size === 0 && carried.size === 0) return;
    const [found] = await Promise.all([unknown.size > 0 ? this.store.findScripts([...unknown]) : [], this.store.storeScripts(carried)]);
    // A text is taken only under its own SHA: what is filed in Redis cannot make a SHA run another script.
    for (const text of found) if (text !== undefined && unknown.has(scriptSha(text))) this.remember(text);
  }

  /** After a SCRIPT FLUSH that Redis took: the filed texts go too, but for those of the commands sent after it. */
  async flushed(commandsAfter: readonly ResolvedCommand[]): Promise<void> {
    await this.store.forgetScripts();
    await this.prepare(commandsAfter.filter(carriesScript));
  }

  /** The arguments to send to Redis instead of the command's, for the scripting commands; others unchanged. */
  translate({ args, spec }: ResolvedCommand): readonly string[] {
    switch (spec.name) {
      case 'eval':
      case 'eval_ro':
        return [args[0], this.remember(args[1]).text, ...args.slice(2)];
      case 'evalsha':
      case 'evalsha_ro': {
        const script = this.rewritten.get(args[1].toLowerCase());
        return script === undefined ? args : [args[0], script.sha, ...args.slice(2)];
      }
      case 'script|load':
        return [args[0], args[1], this.remember(args[2]).text];
      case 'script|exists':
        return [args[0], args[1], ...args.slice(2).map((sha) => this.rewritten.get(sha.toLowerCase())?.sha ?? sha)];
      default:
        return args;
    }
  }

  /** Redis's answer to a translated command, as the client expects it (SCRIPT LOAD: the original SHA). */
  answer({ args, spec }: ResolvedCommand, reply: Reply): Reply {
    if (spec.name === 'script|load' && reply.kind === 'bulk') return { kind: 'bulk', value: scriptSha(args[2]) };
    if (runsScript({ args, spec }) && reply.kind === 'error') return error(restoreScriptError(reply.message, scriptShaOf(spec.name, args)));
    return reply;
  }

  private remember(text: string): Rewritten {
    const sha = scriptSha(text);
    const known = this.rewritten.get(sha);
    if (known) return known;
    const rewritten = guardScript(withFlagsForRedis70(text));
    if (this.rewritten.size >= MAX_REMEMBERED_SCRIPTS) this.rewritten.delete(this.rewritten.keys().next().value as string);
    const script = { text: rewritten, sha: scriptSha(rewritten) };
    this.rewritten.set(sha, script);
    return script;
  }
}

/** Whether a command runs a script by its text or SHA: EVAL, EVALSHA and their read-only forms. */
export function runsScript({ spec }: ResolvedCommand): boolean {
  return spec.name.startsWith('eval');
}

/** Whether a command carries a script's text: EVAL, EVAL_RO and SCRIPT LOAD. */
function carriesScript({ spec }: ResolvedCommand): boolean {
  return spec.name === 'eval' || spec.name === 'eval_ro' || spec.name === 'script|load';
}

/** The client's SHA of the script a scripting command (by its table name) names or carries. */
function scriptShaOf(name: string, args: readonly string[]): string {
  if (name === 'evalsha' || name === 'evalsha_ro') return args[1].toLowerCase();
  return scriptSha(name === 'script|load' ? args[2] : args[1]);
}
