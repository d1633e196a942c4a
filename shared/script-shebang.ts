// Script texts as clients send them, for the key-value server and the plugin's Redis transport
// alike: the `#!lua flags=...` first line, which Lua itself cannot parse and Redis 7.0 refuses for
// flags it does not know (`allow-key-locking`, sent by @upstash/ratelimit 2.1+), and SHA-1 digests
// of the text as sent, which EVALSHA names.
import { createHash } from 'node:crypto';

/** Flags Redis 7.0 knows; others are dropped, since they only tune newer servers. */
export const REDIS_70_SCRIPT_FLAGS = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys']);

export interface ParsedScript {
  /** The text to compile: the shebang line blanked, so error line numbers stay right. */
  readonly body: string;
  /** Flags the shebang declares (all of them, known or not). */
  readonly flags: readonly string[];
  readonly hasShebang: boolean;
}

export type ShebangResult = { readonly ok: true; readonly script: ParsedScript } | { readonly ok: false; readonly error: string };

/** SHA-1 in hex of a byte string (see bytes.ts), as SCRIPT LOAD and EVALSHA compute it. */
export function scriptSha(text: string): string {
  return createHash('sha1').update(text, 'latin1').digest('hex');
}

export function parseShebang(text: string): ShebangResult {
  if (!text.startsWith('#!')) return { ok: true, script: { body: text, flags: [], hasShebang: false } };
  const lineEnd = text.indexOf('\n');
  const line = lineEnd < 0 ? text : text.slice(0, lineEnd);
  const [engine, ...options] = line.trim().split(/\s+/);
  if (engine !== '#!lua') return { ok: false, error: `ERR Unexpected engine in script shebang: ${engine}` };
  const flags: string[] = [];
  for (const option of options) {
    if (!option.startsWith('flags=')) return { ok: false, error: `ERR Unknown lua shebang option: ${option}` };
    flags.push(...option.slice('flags='.length).split(',').filter(Boolean));
  }
  return { ok: true, script: { body: lineEnd < 0 ? '' : text.slice(lineEnd), flags, hasShebang: true } };
}

/**
 * The text Redis 7.0 accepts for a script: the same, except that flags it does not know are
 * removed from the shebang line. Texts without a shebang, or with known flags only, are unchanged.
 */
export function scriptForRedis70(text: string): string {
  const parsed = parseShebang(text);
  if (!parsed.ok || !parsed.script.hasShebang) return text;
  const known = parsed.script.flags.filter((flag) => REDIS_70_SCRIPT_FLAGS.has(flag));
  if (known.length === parsed.script.flags.length) return text;
  return `#!lua${known.length > 0 ? ` flags=${known.join(',')}` : ''}${parsed.script.body}`;
}
