// Scripts rewritten for Redis (guarded, and the allow-key-locking flag line dropped): EVAL and
// SCRIPT LOAD send the rewritten text and file the client's text, EVALSHA of the client's SHA
// sends the SHA of the rewritten text, and a SHA this server has not seen is looked up among the
// filed texts, where only a text with that very SHA counts (issue 27 finding 3). The filed texts
// are a Map here; the two-gateway suite files them in a real Redis.
import { guardScript } from '../../../mock/kv-rest/redis/script-guard';
import { MAX_REMEMBERED_SCRIPTS, ScriptRewrites } from '../../../mock/kv-rest/redis/script-rewrites';
import { bulk } from '../../../mock/kv-rest/reply';
import { scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import { resolvedCommand } from '../../support/engine-commands';

const TEXT = '#!lua flags=allow-key-locking\nreturn redis.call("INCR", KEYS[1])';
const CLIENT_SHA = scriptSha(TEXT);
const REDIS_TEXT = guardScript(scriptForRedis70(TEXT), true);
const REDIS_SHA = scriptSha(REDIS_TEXT);
const EVALSHA = ['EVALSHA', CLIENT_SHA, '1', 'k'];

/** Script texts filed by client SHA, as gateway-store.ts files them in Redis; Redis's Lua compiles every chunk but those in `notCompiling`, and answers an error for those in `unanswered`. */
function filedTexts({ notCompiling = [] as string[], unanswered = [] as string[] } = {}) {
  const filed = new Map<string, string>();
  return {
    filed,
    compileAlone: async (chunks: readonly string[]) => chunks.map((chunk) => (unanswered.includes(chunk) ? undefined : !notCompiling.includes(chunk))),
    findScripts: async (shas: readonly string[]) => shas.map((sha) => filed.get(sha)),
    storeScripts: async (scripts: ReadonlyMap<string, string>) => void scripts.forEach((text, sha) => filed.set(sha, text)),
    forgetScripts: async () => filed.clear(),
  };
}

describe('ScriptRewrites', () => {
  it('sends the rewritten text for EVAL, files the client text, and runs EVALSHA by the SHA of the text Redis runs', async () => {
    const texts = filedTexts();
    const rewrites = new ScriptRewrites(texts);
    await rewrites.prepare([resolvedCommand('EVAL', TEXT, '1', 'k')]);
    expect(rewrites.translate(resolvedCommand('EVAL', TEXT, '1', 'k'))).toEqual(['EVAL', REDIS_TEXT, '1', 'k']);
    expect([...texts.filed]).toEqual([[CLIENT_SHA, TEXT]]);
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(['EVALSHA', REDIS_SHA, '1', 'k']);
    expect(rewrites.translate(resolvedCommand('EVALSHA_RO', CLIENT_SHA.toUpperCase(), '0'))).toEqual(['EVALSHA_RO', REDIS_SHA, '0']);
  });

  it('answers SCRIPT LOAD with the client SHA', async () => {
    const rewrites = new ScriptRewrites(filedTexts());
    await rewrites.prepare([resolvedCommand('SCRIPT', 'LOAD', TEXT)]);
    expect(rewrites.translate(resolvedCommand('SCRIPT', 'LOAD', TEXT))).toEqual(['SCRIPT', 'LOAD', REDIS_TEXT]);
    expect(rewrites.answer(resolvedCommand('SCRIPT', 'LOAD', TEXT), bulk(REDIS_SHA))).toEqual(bulk(CLIENT_SHA));
  });

  it('issue 27 finding 3: finds a SHA it has not seen among the filed texts, for EVALSHA and SCRIPT EXISTS', async () => {
    const texts = filedTexts();
    texts.filed.set(CLIENT_SHA, TEXT);
    const rewrites = new ScriptRewrites(texts);
    await rewrites.prepare([resolvedCommand(...EVALSHA)]);
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(['EVALSHA', REDIS_SHA, '1', 'k']);
    expect(rewrites.translate(resolvedCommand('SCRIPT', 'EXISTS', CLIENT_SHA, 'f'.repeat(40)))).toEqual(['SCRIPT', 'EXISTS', REDIS_SHA, 'f'.repeat(40)]);
  });

  it('issue 27 finding 3: ignores a filed text that does not have the SHA it is filed under', async () => {
    const texts = filedTexts();
    texts.filed.set(CLIENT_SHA, 'return "forged"');
    const rewrites = new ScriptRewrites(texts);
    await rewrites.prepare([resolvedCommand(...EVALSHA)]);
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(EVALSHA);
  });

  it('forgets the filed texts on SCRIPT FLUSH, but for those of the commands after it', async () => {
    const texts = filedTexts();
    const rewrites = new ScriptRewrites(texts);
    await rewrites.prepare([resolvedCommand('SCRIPT', 'LOAD', TEXT), resolvedCommand('SCRIPT', 'LOAD', 'return 1')]);
    await rewrites.flushed([resolvedCommand('SCRIPT', 'LOAD', 'return 1')]);
    expect([...texts.filed]).toEqual([[scriptSha('return 1'), 'return 1']]);
  });

  it('caches a bounded number of rewrites, forgetting the oldest first', async () => {
    const rewrites = new ScriptRewrites(filedTexts());
    const texts = Array.from({ length: MAX_REMEMBERED_SCRIPTS + 1 }, (_, index) => `return ${index}`);
    await rewrites.prepare(texts.map((text) => resolvedCommand('EVAL', text, '0')));
    expect(rewrites.translate(resolvedCommand('EVALSHA', scriptSha('return 0'), '0'))).toEqual(['EVALSHA', scriptSha('return 0'), '0']);
    expect(rewrites.translate(resolvedCommand('EVALSHA', scriptSha('return 1'), '0'))).toEqual(['EVALSHA', scriptSha(guardScript('return 1', true)), '0']);
  });

  it('issue 27 finding 5: runs the guard compiled once for a text Redis compiles on its own, and compiled per call for one it does not or when Redis gave no answer', async () => {
    const texts = filedTexts({ notCompiling: ['return ('], unanswered: ['return 2'] });
    const rewrites = new ScriptRewrites(texts);
    const evals = ['return 1', 'return (', 'return 2'].map((text) => resolvedCommand('EVAL', text, '0'));
    await rewrites.prepare(evals);
    expect(evals.map((command) => rewrites.translate(command)[1])).toEqual([guardScript('return 1', true), guardScript('return (', false), guardScript('return 2', undefined)]);
    expect(guardScript('return 1', true)).not.toContain('loadstring');
    expect(guardScript('return 2', undefined)).toBe(guardScript('return 2', false));
    // Without an answer nothing is remembered: EVALSHA is left to Redis (NOSCRIPT), the next EVAL asks again.
    expect(rewrites.translate(resolvedCommand('EVALSHA', scriptSha('return 2'), '0'))).toEqual(['EVALSHA', scriptSha('return 2'), '0']);
  });
});
