// Issue 34 finding 6 (production review): the route in a strategy's keys is the canonical form of its
// path (server/src/config/canonical-path.ts), so instances configured with different spellings of one
// route share counters and live limits, and different routes never do. Checked against the matcher
// itself: two paths get the same canonical form exactly when the matcher answers alike for them.
// Paths are built from the characters the router-equivalence test routes with (and the letters a
// case-insensitive RegExp keeps apart from ASCII), often as a respelling of one another (letter case,
// parameter names, a trailing slash, a run of stars) or one change away (a character, a parameter for a
// star or a literal, a segment less). Same form: every generated request is answered alike. Different
// forms: one of the requests each path is written for (stars and parameters filled, trailing slashes
// added) is answered differently.
import fc from 'fast-check';
import { canonicalPath, foldCase } from '../../../server/src/config/canonical-path';
import { parsePathPattern, type PathPattern } from '../../../server/src/config/path-pattern';
import { compilePathMatcher, DEFAULT_CONTENT_API_PREFIXES, type PathMatcher } from '../../../server/src/http/match';
import { ASCII_LITERAL_CHARACTERS, CASE_FOLDING_EDGES, flipCase, LATIN1_LITERAL_CHARACTERS } from '../../support/route-arbitraries';

type Segment = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'parameter'; readonly name: string };
/** A strategy path as its parts: a lone `*`, or segments (none: the root `/`) and whether a slash ends it. */
type PathModel = { readonly lone: true } | { readonly lone: false; readonly segments: readonly Segment[]; readonly trailingSlash: boolean };

const LITERALS = [...ASCII_LITERAL_CHARACTERS, ...LATIN1_LITERAL_CHARACTERS, ...CASE_FOLDING_EDGES];
// A few characters, often: collisions between independently drawn paths are then common.
const NEAR_LITERALS = ['a', 'B', 'ß', 'é', '%', ...CASE_FOLDING_EDGES];
const PARAMETER_NAMES = ['id', 'documentId', 'p0', 'slug'];

function written(model: PathModel): string {
  if (model.lone) return '*';
  if (model.segments.length === 0) return '/';
  return `/${model.segments.map((segment) => (segment.kind === 'text' ? segment.text : `:${segment.name}`)).join('/')}${model.trailingSlash ? '/' : ''}`;
}

const literalText = fc.string({ unit: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NEAR_LITERALS) }, { weight: 1, arbitrary: fc.constantFrom(...LITERALS) }), minLength: 1, maxLength: 3 });
// A text segment may hold stars anywhere (`a*`, `*`, `*b*`); at most two per segment keeps the requests enumerable.
const textSegment = fc
  .tuple(literalText, fc.constantFrom('', '*', '**'), fc.constantFrom('', '*'), literalText)
  .chain(([head, star, secondStar, tail]) => fc.constantFrom(head, `${head}${star}`, `${star}${tail}`, `${head}${star}${tail}`, `${head}${secondStar}${star}`))
  .filter((text) => text !== '')
  .map((text): Segment => ({ kind: 'text', text }));
const segment = fc.oneof({ weight: 3, arbitrary: textSegment }, { weight: 1, arbitrary: fc.constantFrom(...PARAMETER_NAMES).map((name): Segment => ({ kind: 'parameter', name })) });
const pathModel: fc.Arbitrary<PathModel> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ lone: true } as const) },
  { weight: 12, arbitrary: fc.record({ lone: fc.constant(false as const), segments: fc.array(segment, { maxLength: 3 }), trailingSlash: fc.boolean() }) },
);

/** Another spelling of `model` that the matcher must treat alike: letter case, parameter names, the trailing slash, stars doubled. */
const respelling = (model: PathModel): fc.Arbitrary<PathModel> =>
  model.lone
    ? fc.constant(model)
    : fc.record({
        lone: fc.constant(false as const),
        segments: fc.tuple(
          ...model.segments.map((part) =>
            part.kind === 'parameter'
              ? fc.constantFrom(...PARAMETER_NAMES).map((name): Segment => ({ kind: 'parameter', name }))
              : fc.tuple(fc.integer(), fc.boolean()).map(([flips, doubleStars]): Segment => ({ kind: 'text', text: flipCase(doubleStars ? part.text.replace(/\*/g, '**') : part.text, flips, false) })),
          ),
        ),
        trailingSlash: fc.boolean(),
      });

/** `model` one change away: a character, a parameter for a star or a literal (or back), a segment less. */
function nearMiss(model: PathModel): fc.Arbitrary<PathModel> {
  if (model.lone || model.segments.length === 0) return pathModel;
  const { segments } = model;
  return fc.tuple(fc.nat(segments.length - 1), fc.constantFrom('character', 'kind', 'star', 'drop'), fc.constantFrom(...LITERALS)).map(([index, change, character]): PathModel => {
    const part = segments[index];
    const replaced = (next: Segment[]): PathModel => ({ ...model, segments: [...segments.slice(0, index), ...next, ...segments.slice(index + 1)] });
    if (change === 'drop') return replaced([]);
    if (change === 'kind') return replaced([part.kind === 'parameter' ? { kind: 'text', text: character } : { kind: 'parameter', name: 'id' }]);
    if (part.kind === 'parameter') return replaced([{ kind: 'text', text: '*' }]);
    return replaced([{ kind: 'text', text: change === 'star' ? `${part.text}*` : `${character}${part.text.slice(1)}` }]);
  });
}

const pairs = pathModel.chain((model) => fc.tuple(fc.constant(model), fc.oneof(respelling(model), nearMiss(model), pathModel)));

function parsedPath(path: string): PathPattern {
  const pattern = parsePathPattern(path);
  if (pattern.kind === 'invalid') throw new Error(`${path}: ${pattern.problem}`);
  return pattern;
}

const parsed = (model: PathModel): PathPattern => parsedPath(written(model));

const matcherOf = (pattern: PathPattern): PathMatcher => compilePathMatcher(pattern, DEFAULT_CONTENT_API_PREFIXES);

// What stars (each run of them, so a path's requests stay few) are filled with in the requests a path is written for.
const STAR_FILLS = ['', 'x', '/'];
const SUFFIXES = ['', '/', '//'];

/** Requests `model` is written for: every star filled each way, parameters filled, trailing slashes added. */
function requestsFor(model: PathModel): string[] {
  if (model.lone) return ['/api', '/api/x', '/graphql', '/x', '/'];
  let paths = [''];
  for (const part of model.segments) {
    const texts = part.kind === 'parameter' ? ['x'] : part.text.split(/\*+/);
    const fills = texts.slice(1).reduce((prefixes, text) => prefixes.flatMap((prefix) => STAR_FILLS.map((fill) => `${prefix}${fill}${text}`)), [texts[0]]);
    paths = paths.flatMap((path) => fills.map((fill) => `${path}/${fill}`));
  }
  return paths.flatMap((path) => SUFFIXES.map((suffix) => `${path}${suffix}`));
}

/** A request for either path, its letters in either case, sometimes with one more character. */
const requestFor = (a: PathModel, b: PathModel): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...requestsFor(a), ...requestsFor(b)), fc.integer(), fc.option(fc.constantFrom(...LITERALS, '/', '#', '?'), { nil: '' })).map(([request, flips, extra]) => `${flipCase(request, flips, false)}${extra}`);

describe('paths share a key route exactly when they match the same requests', () => {
  it('the case representative of every UTF-16 code unit is one of the units a case-insensitive RegExp matches it with, and no such match crosses representatives', () => {
    const escape = (unit: string) => unit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const everyUnit = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code));
    const outsideItsClass = everyUnit.filter((unit) => !new RegExp(`^${escape(foldCase(unit))}$`, 'i').test(unit));
    expect(outsideItsClass).toEqual([]);
    // A unit matches another case-insensitively only when one of them has another case.
    const all = everyUnit.join('');
    const crossing = everyUnit
      .filter((unit) => unit.toUpperCase() !== unit || unit.toLowerCase() !== unit)
      .flatMap((unit) => [...all.matchAll(new RegExp(escape(unit), 'gi'))].filter(([match]) => foldCase(match) !== foldCase(unit)).map(([match]) => [unit, match]));
    expect(crossing).toEqual([]);
  });

  it('two generated paths have one canonical form exactly when the matcher answers every request alike for them', () => {
    let same = 0;
    let different = 0;
    fc.assert(
      fc.property(pairs, fc.context(), ([a, b], context) => {
        const [patternA, patternB] = [parsed(a), parsed(b)];
        const [matchA, matchB] = [matcherOf(patternA), matcherOf(patternB)];
        context.log(`${written(a)} -> ${canonicalPath(patternA)}; ${written(b)} -> ${canonicalPath(patternB)}`);
        if (canonicalPath(patternA) === canonicalPath(patternB)) {
          same++;
          fc.assert(
            fc.property(requestFor(a, b), (request) => {
              expect([request, matchB(request)]).toEqual([request, matchA(request)]);
            }),
            { numRuns: 40 },
          );
        } else {
          different++;
          const distinguishing = [...requestsFor(a), ...requestsFor(b)].filter((request) => matchA(request) !== matchB(request));
          expect(distinguishing.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1500 },
    );
    // Both sides are exercised (about a third of the pairs share a form).
    expect([same > 200, different > 200]).toEqual([true, true]);
  });

  it.each([
    ['/api/articles/:id', '/api/Articles/:documentId/', '/api/articles/:'],
    ['/API/caf%C3%A9', '/api/caf%c3%a9', '/api/caf%c3%a9'],
    ['/api/**/x', '/api/*/X/', '/api/*/x'],
    ['/api/a*/', '/api/A*', '/api/a*'],
    ['/', '/', '/'],
    ['*', '*', '*'],
  ])('%j and %j share the form %j', (first, second, form) => {
    expect([canonicalPath(parsedPath(first)), canonicalPath(parsedPath(second))]).toEqual([form, form]);
  });

  it.each([
    ['/api/*', '*'],
    ['/api/:id', '/api/*'],
    ['/api/k', '/api/\u212a'],
    ['/api/s', '/api/ſ'],
    ['/api/x/*', '/api/x*'],
    ['/api/%41', '/api/a'],
  ])('%j and %j keep forms of their own', (first, second) => {
    expect(canonicalPath(parsedPath(first))).not.toBe(canonicalPath(parsedPath(second)));
  });
});
