// Finding 2: the memory engine's glob backtracked exponentially (`*a*a*...*b` over a 40-character
// field blocked every client for minutes). The glob must answer as Redis's stringmatchlen does, in
// at most (pattern + 1) x (text + 1) steps, and every matching site must use it.
import fc from 'fast-check';
import { compileGlob } from '../../../mock/kv-rest/memory/glob';
import { patternChars, textChars } from './glob-arbitraries';
import { useEngine } from './memory-engine-harness';

/**
 * A plain backtracking reading of Redis's stringmatchlen, exponential but obviously faithful, for
 * small inputs: each star tries every split, a class runs to its `]` or to the pattern's end.
 */
function reference(pattern: string, text: string): boolean {
  const signed = (code: number): number => (code >= 128 ? code - 256 : code);
  const from = (p: number, t: number): boolean => {
    if (t === text.length) {
      while (pattern[p] === '*') p++;
      return p === pattern.length;
    }
    if (p === pattern.length) return false;
    const c = pattern[p];
    if (c === '*') {
      if (p + 1 === pattern.length) return true;
      for (let start = t; start < text.length; start++) if (from(p + 1, start)) return true;
      return false;
    }
    if (c === '?') return from(p + 1, t + 1);
    if (c === '[') {
      let q = p + 1;
      const negate = pattern[q] === '^';
      if (negate) q++;
      let matched = false;
      const code = text.charCodeAt(t);
      while (q < pattern.length && pattern[q] !== ']') {
        if (pattern[q] === '\\' && q + 1 < pattern.length) {
          q++;
          matched ||= pattern.charCodeAt(q) === code;
        } else if (q + 2 < pattern.length && pattern[q + 1] === '-') {
          const ends = [signed(pattern.charCodeAt(q)), signed(pattern.charCodeAt(q + 2))].sort((a, b) => a - b);
          matched ||= signed(code) >= ends[0] && signed(code) <= ends[1];
          q += 2;
        } else {
          matched ||= pattern.charCodeAt(q) === code;
        }
        q++;
      }
      return matched !== negate && from(Math.min(q + 1, pattern.length), t + 1);
    }
    const literal = c === '\\' && p + 1 < pattern.length ? pattern[++p] : c;
    return literal === text[t] && from(p + 1, t + 1);
  };
  // Redis: an empty text is matched by the empty pattern only.
  return text.length === 0 ? pattern.length === 0 : from(0, 0);
}


/**
 * A text that counts the characters read from it and throws past a budget, so a test can bound the
 * matcher's work without a clock: an exponential matcher fails at once instead of running for minutes.
 */
function countingText(text: string, budget: number): { text: string; reads: () => number } {
  let reads = 0;
  const charCodeAt = (index: number): number => {
    if (++reads > budget) throw new Error(`read more than ${budget} characters`);
    return text.charCodeAt(index);
  };
  const proxy = new Proxy(new String(text), {
    get(target, property) {
      if (property === 'charCodeAt') return charCodeAt;
      if (typeof property === 'string' && /^[0-9]+$/.test(property)) return String.fromCharCode(charCodeAt(Number(property)));
      return Reflect.get(target, property);
    },
  });
  return { text: proxy as unknown as string, reads: () => reads };
}

describe('the glob matches as Redis does, in linear time', () => {
  const current = useEngine();

  it('agrees with a backtracking reading of stringmatchlen on every small pattern and text', () => {
    fc.assert(
      fc.property(fc.string({ unit: patternChars, maxLength: 8 }), fc.string({ unit: textChars, maxLength: 8 }), (pattern, text) => {
        expect(compileGlob(pattern).matches(text)).toBe(reference(pattern, text));
      }),
      { numRuns: 20000 },
    );
  });

  it('reads at most (pattern + 1) x (text + 1) characters on adversarial patterns', () => {
    const adversarial = [
      ['*a'.repeat(10) + '*b', 'a'.repeat(40)],
      ['*a'.repeat(100) + '*b', 'a'.repeat(400)],
      ['a*'.repeat(200) + 'b', 'a'.repeat(1000)],
      ['*?'.repeat(150) + 'c', 'ab'.repeat(500)],
      ['*[a-c]'.repeat(100) + '*[^a]', 'a'.repeat(2000)],
    ];
    for (const [pattern, text] of adversarial) {
      const budget = (pattern.length + 1) * (text.length + 1);
      const counted = countingText(text, budget);
      expect({ pattern: pattern.slice(0, 12), matched: compileGlob(pattern).matches(counted.text) }).toEqual({ pattern: pattern.slice(0, 12), matched: false });
      expect(counted.reads()).toBeLessThanOrEqual(budget);
    }
  });

  it('answers HSCAN ... MATCH *a*a*a*a*a*a*a*a*a*a*b over a 40-character field within 1 s', async () => {
    const { run } = current();
    await run('HSET', 'globh', 'a'.repeat(40), 'v');
    const started = Date.now();
    expect(await run('HSCAN', 'globh', '0', 'MATCH', '*a'.repeat(10) + '*b')).toEqual(['0', []]);
    expect(await run('KEYS', '*a'.repeat(10) + '*b')).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('keeps Redis quirks: a lone * in SCAN matches the empty field, ** does not, [a-] is a range to ]', async () => {
    const { run } = current();
    await run('HSET', 'h', '', 'empty', 'b', 'bee', 'a]', 'x');
    expect(await run('HSCAN', 'h', '0', 'MATCH', '*')).toEqual(['0', ['', 'empty', 'b', 'bee', 'a]', 'x']]);
    expect(await run('HSCAN', 'h', '0', 'MATCH', '**')).toEqual(['0', ['b', 'bee', 'a]', 'x']]);
    expect(await run('HSCAN', 'h', '0', 'MATCH', '[a-]b]')).toEqual(['0', ['b', 'bee']]);
  });

  it('never matches once the 1001st star group is reached with text left, as Redis 7.0.15 does', () => {
    const text = 'a'.repeat(1200);
    expect([compileGlob('*a'.repeat(1000)).matches(text), compileGlob('*a'.repeat(1001)).matches(text)]).toEqual([true, false]);
  });
});
