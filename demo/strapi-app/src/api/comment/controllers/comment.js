// The core controller of comments.
const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreController('api::comment.comment');
