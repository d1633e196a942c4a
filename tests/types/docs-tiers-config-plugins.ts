import type { Core } from '@strapi/strapi';
import type { RateLimitConfigInput } from 'strapi-plugin-ratelimit';

export default ({ env }: Core.Config.Shared.ConfigParams) => ({
  ratelimit: {
    config: {
      url: env('RATELIMIT_URL'),
      token: env('RATELIMIT_TOKEN'),
      strategy: [
        { methods: ['ALL'], path: '*', identifierSource: 'user',
          // Callers no tier names: users of other roles, API tokens of other types.
          limiter: { algorithm: 'sliding-window', tokens: 60, window: '1m' },
          tiers: {
            apiTokens: { 'read-only': { tokens: 600 }, 'full-access': { tokens: 6000 } },
            roles: { authenticated: { tokens: 600 }, partner: { tokens: 6000 } },
            anonymous: { tokens: 60 },
          } },
      ],
    } satisfies RateLimitConfigInput,
  },
});
