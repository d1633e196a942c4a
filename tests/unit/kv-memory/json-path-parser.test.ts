// The JSONPath and legacy path parser of the memory engine's JSON commands: what each syntax
// parses to, RedisJSON's grammar limits (dotted names of ASCII characters, positive slice steps,
// no leading zeros), and hostile paths: 64 KB of segments, of filter terms, of parentheses or of
// an unterminated name each parse or fail in linear time, and longer paths are refused.
import fc from 'fast-check';
import { MAX_PATH_LENGTH, parsePath, PathSyntaxError } from '../../../mock/kv-rest/memory/json/json-path';
import { PathSelector, WorkBudget } from '../../../mock/kv-rest/memory/json/json-path-select';
import { parseJson } from '../../../mock/kv-rest/memory/json/json-text';

const timed = <T>(work: () => T): { result: T | Error; ms: number } => {
  const started = performance.now();
  let result: T | Error;
  try {
    result = work();
  } catch (failure) {
    result = failure as Error;
  }
  return { result, ms: performance.now() - started };
};

describe('JSON path parser', () => {
  it('reads legacy paths as RedisJSON does: `.` is the root, a bare name or `[0]` continues from it', () => {
    expect(parsePath('.')).toEqual({ text: '.', legacy: true, segments: [] });
    expect(parsePath('a.b')).toEqual({
      text: 'a.b',
      legacy: true,
      segments: [
        { descendant: false, selector: { kind: 'names', names: ['a'] } },
        { descendant: false, selector: { kind: 'names', names: ['b'] } },
      ],
    });
    expect(parsePath('[0]').segments).toEqual([{ descendant: false, selector: { kind: 'indexes', indexes: [0] } }]);
    expect(parsePath('$a').legacy).toBe(true);
  });

  it('parses every JSONPath form: names, quoted names, wildcards, indexes, unions, slices, descent and filters', () => {
    const path = parsePath(`$.a['b c'][*][-1][0, 2][1:-1:2]..d..*[?(@.p < 10 && @.n == "x" || $.flag)]`);
    expect(path.legacy).toBe(false);
    expect(path.segments).toEqual([
      { descendant: false, selector: { kind: 'names', names: ['a'] } },
      { descendant: false, selector: { kind: 'names', names: ['b c'] } },
      { descendant: false, selector: { kind: 'wildcard' } },
      { descendant: false, selector: { kind: 'indexes', indexes: [-1] } },
      { descendant: false, selector: { kind: 'indexes', indexes: [0, 2] } },
      { descendant: false, selector: { kind: 'slice', start: 1, end: -1, step: 2 } },
      { descendant: true, selector: { kind: 'names', names: ['d'] } },
      { descendant: true, selector: { kind: 'wildcard' } },
      {
        descendant: false,
        selector: {
          kind: 'filter',
          filter: {
            kind: 'or',
            operands: [
              {
                kind: 'and',
                operands: [
                  { kind: 'test', left: { kind: 'path', fromRoot: false, segments: [{ descendant: false, selector: { kind: 'names', names: ['p'] } }] }, comparison: { operator: '<', right: { kind: 'literal', value: { kind: 'integer', value: 10n } } } },
                  { kind: 'test', left: { kind: 'path', fromRoot: false, segments: [{ descendant: false, selector: { kind: 'names', names: ['n'] } }] }, comparison: { operator: '==', right: { kind: 'literal', value: 'x' } } },
                ],
              },
              { kind: 'test', left: { kind: 'path', fromRoot: true, segments: [{ descendant: false, selector: { kind: 'names', names: ['flag'] } }] } },
            ],
          },
        },
      },
    ]);
  });

  it("refuses what RedisJSON's grammar refuses, with the position", () => {
    expect(() => parsePath('$.é')).toThrow('Error occurred at position 2, expected a name, `*` or `[`');
    expect(() => parsePath('$[01]')).toThrow('Error occurred at position 4, an integer may not start with 0');
    expect(() => parsePath('$[0:4:0]')).toThrow('Error occurred at position 7, a slice step must be a positive integer');
    expect(() => parsePath('$["a]')).toThrow('Error occurred at position 5, unterminated quoted name');
    expect(() => parsePath('$.a b')).toThrow('Error occurred at position 4, unexpected characters after the path');
  });

  it('parses 64 KB paths of segments, filter terms and quoted names in linear time, well within a second', () => {
    const segments = `$${'.a'.repeat((MAX_PATH_LENGTH - 1) / 2)}`.slice(0, MAX_PATH_LENGTH);
    const terms = `$[?(${'@.a==1&&'.repeat(8000)}@.a==1)]`.slice(0, MAX_PATH_LENGTH);
    const quoted = `$['${'x'.repeat(MAX_PATH_LENGTH - 6)}']`;
    const unterminated = `$["${'\\"'.repeat((MAX_PATH_LENGTH - 3) / 2)}`.slice(0, MAX_PATH_LENGTH);
    for (const path of [segments, quoted]) {
      const { result, ms } = timed(() => parsePath(path));
      expect(result).not.toBeInstanceOf(Error);
      expect(ms).toBeLessThan(1000);
    }
    for (const path of [terms, unterminated]) expect(timed(() => parsePath(path)).ms).toBeLessThan(1000);
  });

  it('refuses 64 KB of nested parentheses or nested filters at 128 levels, without running out of stack', () => {
    const parentheses = `$[?${'('.repeat(MAX_PATH_LENGTH - 4)}`;
    const filters = `$${'[?(@'.repeat((MAX_PATH_LENGTH - 1) / 5)}`;
    for (const path of [parentheses, filters]) {
      const { result, ms } = timed(() => parsePath(path));
      expect((result as Error).message).toMatch(/^Error occurred at position \d+, filters may nest at most 128 levels deep$/);
      expect(ms).toBeLessThan(1000);
    }
  });

  it('parses any text or refuses it with a PathSyntaxError, and what parses selects without failing', () => {
    const document = parseJson('{"a":[1,{"b":"x","a":[true,null,2.5]}],"b":{"a":{"c":[]}},"12":0}');
    const pieces = fc.constantFrom('$', '.', '..', '[', ']', '*', '?', '(', ')', '@', "'", '"', '\\', ',', ':', '-', '0', '1', '12', 'a', 'b', ' ', '<', '==', '!=', '&&', '||', 'true', 'null', '1.5');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join('')), (text) => {
        try {
          new PathSelector(document, new WorkBudget(100_000)).select(parsePath(text).segments);
        } catch (failure) {
          expect(failure).toBeInstanceOf(PathSyntaxError);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a path longer than 64 KB before reading it', () => {
    expect(() => parsePath(`$${'.a'.repeat(MAX_PATH_LENGTH)}`)).toThrow(`Error occurred at position 0, a path may be at most ${MAX_PATH_LENGTH} characters long`);
  });

  it('stops a path whose recursive descents multiply past the work budget, within a second', () => {
    // 120 nested arrays: each `..*` visits every node below every match, so the fourth one passes the budget.
    const document = parseJson(`${'['.repeat(120)}${']'.repeat(120)}`);
    const path = parsePath(`$${'..*'.repeat(10)}`);
    const { result, ms } = timed(() => new PathSelector(document, new WorkBudget(200_000)).select(path.segments));
    expect((result as Error).message).toBe("ERR the path visits more than 200000 values, past this server's limit");
    expect(ms).toBeLessThan(1000);
  });
});
