// The local servers, for users' own tests: `import { startKvRestServer } from 'strapi-plugin-ratelimit/mock'`.
export { startKvRestServer, KV_REST_DEFAULTS } from './kv-rest/server';
export type { KvRestServer, KvRestServerOptions } from './kv-rest/server';
export type { Engine } from './kv-rest/engine';
export { startWorkflowServer } from './workflow';
export type { WorkflowServer, WorkflowServerOptions, Run, RunState } from './workflow';
