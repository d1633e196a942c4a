// The forms a failed answer may give its wait in (seconds, a duration such as 1h2m3s, an HTTP date)
// must agree on the same wait, in each of the four headers, and the one-day cap must apply alike.
import fc from 'fast-check';
import { retryAfterMs } from '../../../mock/workflow/retry-after';

const NOW = Date.UTC(2026, 0, 1);
const DAY_S = 86_400;
const headerNames = fc.constantFrom('retry-after', 'x-ratelimit-reset', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens');

function duration(seconds: number): string {
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  return `${h}h${m}m${s}s`;
}

describe('retry-after forms', () => {
  it('seconds, a duration and an HTTP date give the same wait up to a day, and none beyond it', () => {
    fc.assert(
      fc.property(headerNames, fc.integer({ min: 0, max: 2 * DAY_S }), (name, seconds) => {
        const forms = [String(seconds), duration(seconds), new Date(NOW + seconds * 1000).toUTCString()];
        const waits = forms.map((text) => retryAfterMs({ [name]: [text] }, NOW));
        expect(waits).toEqual(forms.map(() => (seconds > DAY_S ? undefined : seconds * 1000)));
      }),
    );
  });

  it('reads the headers in the platform\'s order and skips one that does not parse', () => {
    expect(retryAfterMs({ 'retry-after': ['soon'], 'x-ratelimit-reset': ['2'], 'x-ratelimit-reset-tokens': ['9'] }, NOW)).toBe(2000);
    expect(retryAfterMs({ 'x-ratelimit-reset-tokens': ['250ms'], 'x-ratelimit-reset-requests': ['1.5'] }, NOW)).toBe(1500);
    expect(retryAfterMs({ 'retry-after': ['1e3'] }, NOW)).toBeUndefined();
  });
});
