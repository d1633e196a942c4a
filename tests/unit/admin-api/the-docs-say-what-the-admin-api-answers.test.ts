// Issue 28 item 8: the docs said what the admin API does not do. `wouldBlock` read as always
// reported, though only analytics counts would-be refusals (the report without analytics has none:
// tests/integration/plugin/shadow-would-be-refusals-in-analytics.test.ts); and an unreachable store's
// 503 was documented as `{"error": ...}`, though it is Strapi's error shape. Here the README's example
// body is compared, key for key, with what the controller answers, and the docs' sentence on
// `wouldBlock` must name its condition.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import { createRateLimitMiddleware } from '../../../server/src';
import { usageController } from '../../../server/src/admin-api/controllers';
import { closedPortUrl } from '../../fixtures/ports';

const ROOT = path.resolve(__dirname, '../../..');
const docs = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`)].map((file) => readFileSync(path.join(ROOT, file), 'utf8')).join('\n');

/** A JSON value's shape: its keys, all the way down, with every leaf replaced by its type. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return 'array';
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, shape(member)]));
}

describe('the docs describe the answers the admin API gives', () => {
  it("the README's 503 body of GET /ratelimit/usage has the shape the controller answers", async () => {
    const documented = docs.match(/`(\{"data":null,"error":\{"status":503,[^`]*\})`/);
    expect(documented).not.toBeNull();
    const limiter = createRateLimitMiddleware({ url: await closedPortUrl(), token: 't', strategy: [] });
    try {
      const ctx = { query: {}, status: 404, body: undefined } as unknown as Context;
      await usageController(() => limiter).read(ctx);
      expect([ctx.status, shape(JSON.parse(documented![1]))]).toEqual([503, shape(ctx.body)]);
    } finally {
      limiter.close();
    }
  });

  it('every sentence naming `wouldBlock` says it needs `analytics: true`', () => {
    const sentences = docs.replace(/\s+/g, ' ').split(/(?<=\.) /).filter((sentence) => sentence.includes('`wouldBlock`'));
    expect(sentences.length).toBeGreaterThan(0);
    expect(sentences.filter((sentence) => !sentence.includes('`analytics: true`'))).toEqual([]);
  });
});
