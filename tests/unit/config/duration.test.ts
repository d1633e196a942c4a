// The one parser of `window` values: <number><unit> with unit ms, s, m, h or d.
import { parseDuration } from '../../../server/src/config/duration';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250, '250 ms'],
    ['20s', 20_000, '20 s'],
    ['20 s', 20_000, '20 s'],
    ['1m', 60_000, '1 m'],
    ['1.5m', 90_000, '90000 ms'],
    ['2h', 7_200_000, '2 h'],
    ['1d', 86_400_000, '1 d'],
  ])('reads %s as %d ms', (text, milliseconds, upstash) => {
    expect(parseDuration(text)).toEqual({ milliseconds, upstash });
  });

  it.each(['20', '20 sec', 's', '-1s', '0s', '1.2345ms', '1w', '', '20S', '1e3s'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
