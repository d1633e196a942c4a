// Scripts as clients send them, and the texts Redis runs instead: every script is guarded (see
// script-guard.ts) and flags of its `#!lua flags=` line that Redis 7.0 refuses (allow-key-locking,
// from @upstash/ratelimit 2.1+) are dropped. EVALSHA of the client's SHA (of the text as sent) runs
// the rewritten text by its own SHA, SCRIPT LOAD/EXISTS answer with the original SHA and error texts
// name it, as if Redis had taken the original. Redis decides whether a script is loaded (its script
// cache holds the rewritten texts); which rewritten SHA stands for a client's SHA is found from the
// texts every gateway files in Redis (gateway-store.ts), so a script loaded through one REST server
// runs through all of them. What a server remembers here is only a cache of that: a rewrite is a
// function of the text and of whether Redis's Lua compiles it, which each server asks Redis once
// per text (script-guard.ts: the guard compiled once), never trusting an answer filed in Redis.
import { error, type Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import { parseShebang, REDIS_70_SCRIPT_FLAGS, scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import type { GatewayStore } from './gateway-store';
import { guardScript, restoreScriptError, scriptChunk } from './script-guard';

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

  constructor(private readonly store: Pick<GatewayStore, 'findScripts' | 'storeScripts' | 'forgetScripts' | 'compileAlone'>) {}

  /**
   * Before translate(): finds in Redis the texts of the SHAs that EVALSHA and SCRIPT EXISTS name
   * and this server has not seen, and files the texts that EVAL and SCRIPT LOAD carry (resolving
   * once they are filed, so a client told a SHA may use it on any server at once); asks Redis
   * whether the texts new to this server compile, so translate() sends their guard compiled once.
   * Undefined when there is nothing to do (every SHA known, no text carried): the usual request waits for nothing.
   */
  prepare(commands: readonly ResolvedCommand[]): Promise<void> | undefined {
    // Created on the first entry only: most requests name known SHAs and carry no text.
    let unknown: Set<string> | undefined;
    let carried: Map<string, string> | undefined;
    for (const command of commands) {
      const { args, spec } = command;
      if (spec.name === 'evalsha' || spec.name === 'evalsha_ro') unknown = this.withUnknown(unknown, args[1]);
      else if (spec.name === 'script|exists') for (let index = 2; index < args.length; index++) unknown = this.withUnknown(unknown, args[index]);
      else if (carriesScript(command)) {
        const text = spec.name === 'script|load' ? args[2] : args[1];
        (carried ??= new Map()).set(scriptSha(text), text);
      }
    }
    if (unknown && carried) for (const sha of carried.keys()) unknown.delete(sha);
    if (!unknown?.size && !carried) return undefined;
    return this.fileAndFind(unknown ?? new Set(), carried ?? new Map());
  }

  /** `unknown` with `sha` added (and created) when this server has no rewrite for it. */
  private withUnknown(unknown: Set<string> | undefined, sha: string): Set<string> | undefined {
    const lower = sha.toLowerCase();
    return this.rewritten.has(lower) ? unknown : (unknown ?? new Set()).add(lower);
  }

  /** prepare()'s work in Redis: files the carried texts, finds the unknown SHAs' texts, learns the rewrites of both. */
  private async fileAndFind(unknown: ReadonlySet<string>, carried: ReadonlyMap<string, string>): Promise<void> {
    const found = async (): Promise<string[]> => {
      const texts = unknown.size > 0 ? await this.store.findScripts([...unknown]) : [];
      // A text is taken only under its own SHA: what is filed in Redis cannot make a SHA run another script.
      return texts.filter((text): text is string => text !== undefined && unknown.has(scriptSha(text)));
    };
    await Promise.all([this.store.storeScripts(carried), this.learn([...carried.values()]), found().then((texts) => this.learn(texts))]);
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
        return [args[0], this.rewrite(args[1]).text, ...args.slice(2)];
      case 'evalsha':
      case 'evalsha_ro': {
        const script = this.rewritten.get(args[1].toLowerCase());
        return script === undefined ? args : [args[0], script.sha, ...args.slice(2)];
      }
      case 'script|load':
        return [args[0], args[1], this.rewrite(args[2]).text];
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

  /** Asks Redis once whether each text new to this server compiles, and remembers its rewrite. */
  private async learn(texts: readonly string[]): Promise<void> {
    const unseen = [...new Set(texts)].filter((text) => !this.rewritten.has(scriptSha(text)));
    if (unseen.length === 0) return;
    const forRedis = unseen.map(withFlagsForRedis70);
    const compiles = await this.store.compileAlone(forRedis.map((text) => scriptChunk(text) ?? ''));
    forRedis.forEach((text, index) => {
      const verdict = compiles[index];
      // Without Redis's answer (an error reply), the text is guarded per call and not remembered: asked again next time.
      if (verdict !== undefined) this.remember(unseen[index], rewrittenScript(text, verdict));
    });
  }

  /** The remembered rewrite of `text`, or (not learnt, or forgotten since) its guard compiled per call, which needs no answer from Redis. */
  private rewrite(text: string): Rewritten {
    return this.rewritten.get(scriptSha(text)) ?? rewrittenScript(withFlagsForRedis70(text), undefined);
  }

  private remember(text: string, script: Rewritten): void {
    if (this.rewritten.size >= MAX_REMEMBERED_SCRIPTS) this.rewritten.delete(this.rewritten.keys().next().value as string);
    this.rewritten.set(scriptSha(text), script);
  }
}

/** What Redis runs for a text already fit for Redis 7.0's flags, given whether its chunk compiles on its own. */
function rewrittenScript(text: string, compilesAlone: boolean | undefined): Rewritten {
  const guarded = guardScript(text, compilesAlone);
  return { text: guarded, sha: scriptSha(guarded) };
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
