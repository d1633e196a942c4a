// The package's `main`, kept beside package.json on purpose: Strapi loads a plugin declared with a
// directory (`resolve: './src/plugins/ratelimit'`) from the folder of whatever `require.resolve`
// finds there, and then reads that folder's package.json. A `main` inside dist/ made it look for
// dist/server/src/package.json. Imports by package name go through `exports` and never reach this file.
module.exports = require('./dist/server/src/index.js');
