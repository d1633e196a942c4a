// When a failed answer says when to try again. The platform reads, in this order, `Retry-After`,
// `X-RateLimit-Reset`, `X-RateLimit-Reset-Requests` and `X-RateLimit-Reset-Tokens`, each as seconds
// (`10`, `1.5`), an HTTP date (`Sun, 27 Jun 2024 12:16:24 GMT`) or a duration (`6m5s`, `500ms`,
// units ns, us/µs, ms, s, m, h). A wait beyond one day is not honoured: the backoff applies then,
// as it does when no header parses.

const HEADERS = ['retry-after', 'x-ratelimit-reset', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens'];
const ONE_DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SECONDS = /^\d+(?:\.\d+)?$/;
const DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
/** RFC 1123 dates, the only date form HTTP allows in these headers. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function waitMs(text: string, now: number): number | undefined {
  if (text.length > 64) return undefined;
  if (SECONDS.test(text)) return Number(text) * 1000;
  if (DURATION.test(text)) {
    let total = 0;
    for (const [, value, unit] of text.matchAll(DURATION_PART)) total += Number(value) * UNIT_MS[unit];
    return total;
  }
  if (HTTP_DATE.test(text)) {
    const at = Date.parse(text);
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
  }
  return undefined;
}

/** Milliseconds (unscaled) before the next attempt, or undefined to use the backoff. */
export function retryAfterMs(headers: Readonly<Record<string, readonly string[]>>, now: number): number | undefined {
  for (const name of HEADERS) {
    const text = headers[name]?.[0]?.trim();
    if (text === undefined) continue;
    const wait = waitMs(text, now);
    if (wait === undefined) continue;
    return wait > ONE_DAY_MS ? undefined : Math.round(wait);
  }
  return undefined;
}
