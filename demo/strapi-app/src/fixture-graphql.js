// What the GraphQL fixture adds to the app (FIXTURE_GRAPHQL=true, see config/plugins.js):
// - the public role may read articles and comments, as an app whose admins ticked `find` and
//   `findOne` in users-permissions: GraphQL queries go through those permissions (the REST routes'
//   `auth: false` does not reach them);
// - a `ping { ok }` query answering without the database, as GET /api/ping does over REST: the
//   benchmark's GraphQL read beside that REST read (a database read costs milliseconds here, which
//   would bury what the limiter adds);
// - with FIXTURE_COUNT_PASSWORD_CHECKS=true, every password users-permissions checks (a login's
//   bcrypt comparison) is counted, so a test can prove how many logins really ran.
const READABLE_ACTIONS = ['api::article.article.find', 'api::article.article.findOne', 'api::comment.comment.find', 'api::comment.comment.findOne'];

// Per Strapi instance: one process may boot several apps one after another (tests).
const passwordChecks = new WeakMap();

/** Counts users-permissions' password checks from now on (the service is one instance per app). */
function countPasswordChecks(strapi) {
  const users = strapi.plugin('users-permissions').service('user');
  const validatePassword = users.validatePassword;
  const counter = { checks: 0 };
  users.validatePassword = function countedValidatePassword(...args) {
    counter.checks += 1;
    return validatePassword.apply(this, args);
  };
  passwordChecks.set(strapi, counter);
}

/** How many passwords the app checked since it booted. */
function passwordChecksOf(strapi) {
  const counter = passwordChecks.get(strapi);
  if (!counter) throw new Error('the app counts password checks only when booted with FIXTURE_COUNT_PASSWORD_CHECKS=true');
  return counter.checks;
}

/** Adds the public `ping` query (call in register()). */
function addPingQuery(strapi) {
  strapi.plugin('graphql').service('extension').use({
    typeDefs: 'type Ping { ok: Boolean! } extend type Query { ping: Ping! }',
    resolvers: { Query: { ping: () => ({ ok: true }) } },
    resolversConfig: { 'Query.ping': { auth: false } },
  });
}

async function allowPublicReads(strapi) {
  const publicRole = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  const permissions = strapi.db.query('plugin::users-permissions.permission');
  for (const action of READABLE_ACTIONS) {
    if ((await permissions.count({ where: { action, role: publicRole.id } })) === 0) await permissions.create({ data: { action, role: publicRole.id } });
  }
}

module.exports = { addPingQuery, countPasswordChecks, passwordChecksOf, allowPublicReads };
