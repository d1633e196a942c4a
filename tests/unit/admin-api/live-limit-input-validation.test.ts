// `PUT|DELETE /ratelimit/strategies/:index/limit` check their input before anything reaches the
// store: the index must be the decimal index of a configured strategy, tokens a whole JSON number
// from 1 to MAX_TOKENS. Anything else is a 400 in Strapi's error shape, and the limiter is never asked.
import type { Context } from 'koa';
import { usageController, type UsageSource } from '../../../server/src/admin-api/controllers';
import type { LiveLimitResult } from '../../../server/src/admin-api/usage-types';
import { MAX_TOKENS } from '../../../server/src/config/bounds';

interface SentContext {
  status: number;
  body: unknown;
}

function fakeContext(index: unknown, body?: unknown, user: object | undefined = { email: 'admin@example.com' }): Context & SentContext {
  return { params: { index }, query: {}, request: { body }, state: { user }, status: 404, body: undefined } as unknown as Context & SentContext;
}

/** A limiter of three strategies that records what it is asked to change. */
function recordingSource() {
  const changes: Array<[number, number | null, string]> = [];
  const source: UsageSource = {
    config: { strategy: [{}, {}, {}] },
    readUsage: () => Promise.reject(new Error('not used')),
    configuredReport: () => {
      throw new Error('not used');
    },
    resetCaller: () => Promise.reject(new Error('not used')),
    setLiveLimit: (index: number, tokens: number | null, by: string): Promise<LiveLimitResult> => {
      changes.push([index, tokens, by]);
      return Promise.resolve({ strategy: index, configured: 10, live: tokens });
    },
  };
  return { changes, controller: usageController(() => source) };
}

const badIndex = (last: number) => ({ data: null, error: { status: 400, name: 'ValidationError', message: `strategy must be the index of a configured strategy (0 to ${last})`, details: {} } });
const badTokens = { data: null, error: { status: 400, name: 'ValidationError', message: `tokens must be a whole number from 1 to ${MAX_TOKENS}`, details: {} } };

it.each<[string, unknown]>([
  ['a word', 'abc'],
  ['a negative number', '-1'],
  ['a fraction', '1.5'],
  ['past the last strategy', '3'],
  ['empty', ''],
  ['a huge number', '99999999999999999999'],
  ['an exponent', '1e0'],
  ['missing', undefined],
])('an index that is %s is a 400 on PUT and DELETE, and nothing is changed', async (_what, index) => {
  const { changes, controller } = recordingSource();
  const put = fakeContext(index, { tokens: 5 });
  const del = fakeContext(index);
  await controller.setLimit(put);
  await controller.clearLimit(del);
  expect([put.status, put.body, del.status, del.body, changes]).toEqual([400, badIndex(2), 400, badIndex(2), []]);
});

it.each<[string, unknown]>([
  ['a string', { tokens: '50' }],
  ['a float', { tokens: 2.5 }],
  ['Infinity (what JSON 1e400 parses to)', { tokens: JSON.parse('1e400') }],
  ['NaN', { tokens: NaN }],
  ['0', { tokens: 0 }],
  ['negative', { tokens: -5 }],
  ['above the bound', { tokens: MAX_TOKENS + 1 }],
  ['a boolean', { tokens: true }],
  ['null', { tokens: null }],
  ['an array', { tokens: [5] }],
  ['missing', {}],
  ['a body that is no object', undefined],
])('tokens that are %s are a 400, and nothing is changed', async (_what, body) => {
  const { changes, controller } = recordingSource();
  const ctx = fakeContext('1', body);
  await controller.setLimit(ctx);
  expect([ctx.status, ctx.body, changes]).toEqual([400, badTokens, []]);
});

it('a valid PUT and DELETE change the checked strategy, naming the admin from ctx.state.user', async () => {
  const { changes, controller } = recordingSource();
  const put = fakeContext('2', { tokens: MAX_TOKENS });
  const del = fakeContext('0', undefined, {});
  await controller.setLimit(put);
  await controller.clearLimit(del);
  expect([put.body, del.body, changes]).toEqual([
    { data: { strategy: 2, configured: 10, live: MAX_TOKENS } },
    { data: { strategy: 0, configured: 10, live: null } },
    [
      [2, MAX_TOKENS, 'admin@example.com'],
      [0, null, 'an unknown admin'],
    ],
  ]);
});
