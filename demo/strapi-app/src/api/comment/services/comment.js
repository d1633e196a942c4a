// The core service of comments.
const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreService('api::comment.comment');
