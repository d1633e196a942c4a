// The Strapi server entry of the plugin (package.json `exports["./strapi-server"]`). Strapi loads
// only compiled JavaScript, so this compiles to dist/strapi-server.js.
import { strapiServerPlugin } from './server/src/strapi/plugin';

export = strapiServerPlugin;
