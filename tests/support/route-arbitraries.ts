// Generators for the router-equivalence tests: Strapi-like routes (literal and `:param` segments
// under a prefix), request paths aimed at them (percent-encodings valid and not, encoded slashes and
// line breaks, separators, Latin-1 and odd characters, long segments, case changes, repeated and
// trailing slashes), and every strategy path with `*` that covers a route.
import fc from 'fast-check';

export const ROUTE_PREFIX = '/api';

/** A route as its segments: literal text, or `:p<n>` for a parameter. */
export type RouteSegments = readonly string[];

// Node's HTTP server answers 400 to a request target holding a byte above 0x7f: only in-process
// paths (and routes meant for them) hold Latin-1 and other characters raw.
export const ASCII_LITERAL_CHARACTERS = [...'aBz09-._~%F2!$&\',;=@'];
export const LATIN1_LITERAL_CHARACTERS = ['é', 'ÿ', 'µ', 'ß', 'Ä'];
/** Characters a case-insensitive RegExp keeps apart from their ASCII look-alikes (Kelvin sign, long s, dotted I). */
export const CASE_FOLDING_EDGES = ['\u212a', 'ſ', '\u0130'];

/** Routes of one to four segments; `sendable`: literals a client can reach without percent-encoding. */
export const route = (sendable: boolean): fc.Arbitrary<RouteSegments> =>
  fc
    .array(
      fc.option(fc.string({ unit: fc.constantFrom(...ASCII_LITERAL_CHARACTERS, ...(sendable ? [] : LATIN1_LITERAL_CHARACTERS)), minLength: 1, maxLength: 6 }), { nil: undefined, freq: 3 }),
      { minLength: 1, maxLength: 4 },
    )
    .map((segments) => segments.map((segment, index) => segment ?? `:p${index}`));

export const routePath = (segments: RouteSegments): `/${string}` => `${ROUTE_PREFIX}/${segments.join('/')}`;

// What a client can put in a request target (`?` and `#` end the path).
const ENCODINGS = ['%2F', '%2f', '%0A', '%0D', '%0d%0a', '%E2%80%A8', '%00', '%25', '%', '%G1', '%E0%A4%A', '%C3%A9', '%41', '%2e%2E'];
const SENDABLE_CHARACTERS = [...'aAzZ09.-_~!$&\'()*+,;=:@\\[]{}|^`"<>'];
/** Characters only a path built in-process can hold: the router and the matcher must still agree. */
const UNSENDABLE_CHARACTERS = [...LATIN1_LITERAL_CHARACTERS, '#', '?', '\n', '\r', '\u2028', ' ', '\t', ...CASE_FOLDING_EDGES];

const rawSegment = (sendable: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...ENCODINGS, ...SENDABLE_CHARACTERS, ...(sendable ? [] : UNSENDABLE_CHARACTERS)), minLength: 0, maxLength: 8 }) },
    { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...ENCODINGS, ...SENDABLE_CHARACTERS), minLength: 1, maxLength: 8 }) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 3000 }).map((length) => 'a%2F'.repeat(length / 4)) },
  );

/** The other case of `character`, if it has one a client can send (when `sendable`). */
function otherCase(character: string, sendable: boolean): string {
  const other = character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase();
  return sendable && !/^[\u0021-\u007e]$/.test(other) ? character : other;
}

/** `text` with the characters at the set bits of `flips` in their other case. */
export const flipCase = (text: string, flips: number, sendable: boolean): string =>
  [...text].map((character, index) => ((flips >>> index % 31) & 1 ? otherCase(character, sendable) : character)).join('');

/**
 * Request paths for `segments`: mostly aimed at the route (literals in any case, parameters filled
 * with raw segments), sometimes a literal replaced, slashes repeated or appended, a segment added.
 * `sendable`: only what a client can send; otherwise any string the router could be handed.
 */
export function requestPathFor(segments: RouteSegments, sendable: boolean): fc.Arbitrary<string> {
  const filled = fc.tuple(
    ...segments.map((segment) =>
      segment.startsWith(':')
        ? rawSegment(sendable)
        : fc.oneof({ weight: 5, arbitrary: fc.integer().map((flips) => flipCase(segment, flips, sendable)) }, { weight: 1, arbitrary: rawSegment(sendable) }),
    ),
  );
  const suffix = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 3, arbitrary: fc.constantFrom('/', '//') }, { weight: 1, arbitrary: rawSegment(sendable).map((segment) => `/${segment}`) });
  const prefix = fc.oneof({ weight: 6, arbitrary: fc.constant(ROUTE_PREFIX) }, { weight: 1, arbitrary: fc.constantFrom('/API', '/Api', '/apii', '') });
  const doubledSlash = fc.oneof({ weight: 6, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat(segments.length - 1) });
  return fc
    .tuple(prefix, filled, suffix, doubledSlash)
    .map(([start, values, end, doubled]) => `${start}${values.map((value, index) => (index === doubled ? `//${value}` : `/${value}`)).join('')}${end}`);
}

/** Anything: a path aimed at the route, or an arbitrary string (still starting with `/`). */
export const anyRequestPathFor = (segments: RouteSegments): fc.Arbitrary<string> =>
  fc.oneof({ weight: 4, arbitrary: requestPathFor(segments, false) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((text) => `/${text}`) });

/**
 * Every strategy path with `*` that covers the route: the route cut after each segment and ended
 * with `*`, each segment (or what follows a literal segment's first characters) replaced by `*`.
 */
export function starPathsCovering(segments: RouteSegments): `/${string}`[] {
  const paths: `/${string}`[] = [`${ROUTE_PREFIX}/*`];
  segments.forEach((segment, index) => {
    const before = segments.slice(0, index);
    const after = segments.slice(index + 1);
    const heads = segment.startsWith(':') ? [''] : ['', segment.slice(0, 1), segment];
    for (const head of heads) {
      paths.push(routePath([...before, `${head}*`]));
      if (after.length > 0) paths.push(routePath([...before, `${head}*`, ...after]));
    }
  });
  return paths;
}
