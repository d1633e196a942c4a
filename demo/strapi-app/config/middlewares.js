// Strapi's default middleware stack, optionally with the plugin's named middleware placed by hand.
const placed = process.env.FIXTURE_PLACE_MIDDLEWARE === 'true' ? ['plugin::ratelimit.limit'] : [];
module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  ...placed,
];
