// Shadow mode in the config: a strategy's `mode` (enforce or shadow) falls back to the top-level
// `mode`, which falls back to enforce; anything else is refused with an error naming the field.
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { problemsOf as configProblems } from '../../support/config-problems';

const base = { url: 'http://127.0.0.1:8079', token: 't' };
const strategy = (path: string, mode?: unknown) => ({
  methods: ['GET'],
  path,
  identifierSource: 'ip',
  ...(mode === undefined ? {} : { mode }),
  limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s' },
});

const modesOf = (config: Record<string, unknown>): string[] => compileConfig(parseConfig({ ...base, ...config })).rules.map((rule) => rule.mode);

const problemsOf = (config: Record<string, unknown>): string[] => configProblems({ ...base, ...config });

describe('shadow mode config', () => {
  it('strategies enforce by default', () => {
    expect(modesOf({ strategy: [strategy('/a'), strategy('/b')] })).toEqual(['enforce', 'enforce']);
  });

  it('a strategy without a mode takes the top-level mode, and a strategy that names one keeps it', () => {
    expect(modesOf({ mode: 'shadow', strategy: [strategy('/a'), strategy('/b', 'enforce'), strategy('/c', 'shadow')] })).toEqual(['shadow', 'enforce', 'shadow']);
    expect(modesOf({ strategy: [strategy('/a', 'shadow'), strategy('/b')] })).toEqual(['shadow', 'enforce']);
  });

  it('a mode other than enforce or shadow is refused with an error naming the field', () => {
    const expected = 'must be "enforce" (refuse requests past the limit) or "shadow" (count them and log would-be refusals, never refuse)';
    expect(problemsOf({ strategy: [strategy('/a', 'dry-run')] })).toEqual([`strategy[0].mode: ${expected}`]);
    expect(problemsOf({ mode: 'Shadow', strategy: [] })).toEqual([`mode: ${expected}`]);
    expect(problemsOf({ strategy: [strategy('/a', true)] })).toEqual([`strategy[0].mode: ${expected}`]);
  });
});
