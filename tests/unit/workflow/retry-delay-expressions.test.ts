// The Retry-Delay expression: evaluated by our own whitelist over jsep's AST, never eval.
import { exponentialBackoff, parseRetryDelay, RetryDelayError } from '../../../mock/workflow/retry-delay';
import { parseCombinedDuration } from '../../../mock/workflow/durations';
import { parseFlowControlValue } from '../../../mock/workflow/flow-control';

describe('Retry-Delay expressions', () => {
  it.each([
    ['1000', [1000, 1000, 1000]],
    ['1000 * (1 + retried)', [1000, 2000, 3000]],
    ['pow(2, retried) * 1000', [1000, 2000, 4000]],
    ['max(1000, pow(2, retried) * 100)', [1000, 1000, 1000]],
    ['min(500, retried * 300)', [0, 300, 500]],
    ['floor(sqrt(retried) * 10) + abs(-1) + ceil(0.2) + round(0.4) + exp(0) + retried % 2', [3, 14, 17]],
    ['-5', [0, 0, 0]],
  ])('%s gives %j for retried 0, 1, 2', (expression, delays) => {
    const delay = parseRetryDelay(expression);
    expect([0, 1, 2].map(delay)).toEqual(delays);
  });

  it.each([
    ['pow(2, ', /does not parse/],
    ['attempts * 10', /unknown variable "attempts"/],
    ['process.exit(1)', /not allowed|unknown function/],
    ['constructor("return 1")()', /unknown function|not allowed/],
    ['require("fs")', /unknown function "require"/],
    ['pow(2)', /pow takes 2 arguments, not 1/],
    ['"text"', /only numbers/],
    ['retried ** 2', /does not parse|not allowed/],
    ['a = 1', /not allowed|does not parse/],
    ['x'.repeat(600), /longer than 500/],
  ])('refuses %s', (expression, message) => {
    expect(() => parseRetryDelay(expression)).toThrow(RetryDelayError);
    expect(() => parseRetryDelay(expression)).toThrow(message);
  });

  it('backs off like the platform without an expression', () => {
    expect([0, 1, 2, 10].map(exponentialBackoff)).toEqual([12_182, 148_413, 1_808_042, 86_400_000]);
  });
});

describe('delays and flow-control values', () => {
  it.each([
    ['10s', 10_000],
    ['1m', 60_000],
    ['1d2h3m', 93_780_000],
    ['1.5h', 5_400_000],
  ])('reads Delay %s as %d ms', (text, ms) => expect(parseCombinedDuration(text)).toBe(ms));

  it.each(['10', '10 s', '1w', '', 's', '-1s'])('refuses Delay %j', (text) => expect(parseCombinedDuration(text)).toBeUndefined());

  it('reads parallelism, rate and period, and explains mistakes', () => {
    expect(parseFlowControlValue('parallelism=2, rate=10, period=1m', parseCombinedDuration)).toEqual({ parallelism: 2, rate: 10, period: 60_000 });
    expect(parseFlowControlValue('rate=5', parseCombinedDuration)).toEqual({ rate: 5, period: 1000 });
    expect(parseFlowControlValue('period=1s', parseCombinedDuration)).toMatch(/parallelism=<n> and\/or rate=<n>/);
    expect(parseFlowControlValue('parallelism=0', parseCombinedDuration)).toMatch(/at least 1/);
    expect(parseFlowControlValue('speed=3', parseCombinedDuration)).toMatch(/unknown setting "speed"/);
    expect(parseFlowControlValue('rate=1, period=soon', parseCombinedDuration)).toMatch(/period must be a duration/);
  });
});

describe('hostile Retry-Delay expressions', () => {
  it('caps huge results at one day and retries at once on NaN', () => {
    expect(parseRetryDelay('pow(10, 400)')(0)).toBe(86_400_000);
    expect(parseRetryDelay('pow(retried, 1e308)')(5)).toBe(86_400_000);
    expect(parseRetryDelay('0 / 0')(0)).toBe(0);
  });

  it('evaluates deep nesting within the length bound and refuses deeper input cleanly', () => {
    expect(parseRetryDelay(`${'('.repeat(240)}retried + 1${')'.repeat(240)}`)(4)).toBe(5);
    expect(() => parseRetryDelay(`${'('.repeat(5000)}1${')'.repeat(5000)}`)).toThrow(RetryDelayError);
  });

  it.each(['this', 'retried.constructor', 'retried["constructor"]', '[1, 2]', 'retried ? 1 : 2', 'new Date()', '() => 1', 'pow.call(null, 2, 3)'])('refuses %s', (expression) => {
    expect(() => parseRetryDelay(expression)).toThrow(RetryDelayError);
  });
});
