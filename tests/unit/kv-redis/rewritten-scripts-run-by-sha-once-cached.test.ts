// Scripts rewritten for Redis (guarded, and the allow-key-locking flag line dropped): EVALSHA of the
// client's SHA sends the rewritten text until Redis has taken it, then only its SHA; a NOSCRIPT from
// Redis (its cache was flushed elsewhere) forgets the rewrite, so EVALSHA answers NOSCRIPT as Redis would.
import { guardScript } from '../../../mock/kv-rest/redis/script-guard';
import { MAX_REMEMBERED_SCRIPTS, ScriptRewrites } from '../../../mock/kv-rest/redis/script-rewrites';
import { bulk, error, integer } from '../../../mock/kv-rest/reply';
import { scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import { resolvedCommand } from '../../support/engine-commands';

const TEXT = '#!lua flags=allow-key-locking\nreturn redis.call("INCR", KEYS[1])';
const CLIENT_SHA = scriptSha(TEXT);
const REDIS_TEXT = guardScript(scriptForRedis70(TEXT));
const REDIS_SHA = scriptSha(REDIS_TEXT);
const EVALSHA = ['EVALSHA', CLIENT_SHA, '1', 'k'];

describe('ScriptRewrites', () => {
  it('sends the text until Redis has run it, then the SHA of the text Redis runs', () => {
    const rewrites = new ScriptRewrites();
    expect(rewrites.translate(resolvedCommand('EVAL', TEXT, '1', 'k'))).toEqual(['EVAL', REDIS_TEXT, '1', 'k']);
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(['EVAL', REDIS_TEXT, '1', 'k']);
    rewrites.answer(resolvedCommand('EVAL', TEXT, '1', 'k'), integer(1));
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(['EVALSHA', REDIS_SHA, '1', 'k']);
    expect(rewrites.translate(resolvedCommand('EVALSHA_RO', CLIENT_SHA.toUpperCase(), '0'))).toEqual(['EVALSHA_RO', REDIS_SHA, '0']);
  });

  it('counts a SCRIPT LOAD as taken, and answers it with the client SHA', () => {
    const rewrites = new ScriptRewrites();
    expect(rewrites.translate(resolvedCommand('SCRIPT', 'LOAD', TEXT))).toEqual(['SCRIPT', 'LOAD', REDIS_TEXT]);
    expect(rewrites.answer(resolvedCommand('SCRIPT', 'LOAD', TEXT), bulk(REDIS_SHA))).toEqual(bulk(CLIENT_SHA));
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(['EVALSHA', REDIS_SHA, '1', 'k']);
  });

  it('keeps the SHA after a script error, and forgets the script after NOSCRIPT', () => {
    const rewrites = new ScriptRewrites();
    rewrites.translate(resolvedCommand('SCRIPT', 'LOAD', TEXT));
    rewrites.answer(resolvedCommand('SCRIPT', 'LOAD', TEXT), bulk(REDIS_SHA));
    const noscript = error('NOSCRIPT No matching script. Please use EVAL.');
    rewrites.answer(resolvedCommand(...EVALSHA), error('WRONGTYPE Operation against a key holding the wrong kind of value'));
    expect(rewrites.translate(resolvedCommand(...EVALSHA))[1]).toBe(REDIS_SHA);
    expect(rewrites.answer(resolvedCommand(...EVALSHA), noscript)).toEqual(noscript);
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(EVALSHA);
    expect(rewrites.translate(resolvedCommand('SCRIPT', 'EXISTS', CLIENT_SHA))).toEqual(['SCRIPT', 'EXISTS', CLIENT_SHA]);
  });

  it('forgets rewritten scripts on SCRIPT FLUSH', () => {
    const rewrites = new ScriptRewrites();
    rewrites.translate(resolvedCommand('SCRIPT', 'LOAD', TEXT));
    rewrites.answer(resolvedCommand('SCRIPT', 'FLUSH'), { kind: 'simple', value: 'OK' });
    expect(rewrites.translate(resolvedCommand(...EVALSHA))).toEqual(EVALSHA);
  });

  it('remembers a bounded number of scripts, forgetting the oldest first', () => {
    const rewrites = new ScriptRewrites();
    for (let index = 0; index <= MAX_REMEMBERED_SCRIPTS; index++) rewrites.translate(resolvedCommand('EVAL', `return ${index}`, '0'));
    expect(rewrites.translate(resolvedCommand('EVALSHA', scriptSha('return 0'), '0'))).toEqual(['EVALSHA', scriptSha('return 0'), '0']);
    expect(rewrites.translate(resolvedCommand('EVALSHA', scriptSha('return 1'), '0'))).toEqual(['EVAL', guardScript('return 1'), '0']);
  });
});
