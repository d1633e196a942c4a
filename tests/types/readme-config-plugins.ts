import type { Core } from '@strapi/strapi';
import type { RateLimitConfigInput } from 'strapi-plugin-ratelimit';

export default ({ env }: Core.Config.Shared.ConfigParams) => ({
  // ...the entries your file already has (create-strapi's users-permissions, upload) stay as they are
  ratelimit: {
    config: {
      url: env('RATELIMIT_URL'),
      token: env('RATELIMIT_TOKEN'),
      strategy: [
        { methods: ['ALL'], path: '*', identifierSource: 'ip',
          limiter: { algorithm: 'sliding-window', tokens: 100, window: '1m' } },
      ],
    } satisfies RateLimitConfigInput,
  },
});
