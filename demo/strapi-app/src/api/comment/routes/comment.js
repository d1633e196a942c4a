// The core read routes of comments. Beside REST, they make `find` and `findOne` content-API actions
// that a role can be granted: without them GraphQL refuses `Article.comments` to every caller.
const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreRouter('api::comment.comment', {
  only: ['find', 'findOne'],
  config: { find: { auth: false }, findOne: { auth: false } },
});
