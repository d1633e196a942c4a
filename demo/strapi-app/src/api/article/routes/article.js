// The core REST routes of articles, readable without authentication.
const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreRouter('api::article.article', {
  config: { find: { auth: false }, findOne: { auth: false } },
});
