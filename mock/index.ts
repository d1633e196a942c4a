// The local servers, for users' own tests: `import { startKvRestServer } from 'strapi-plugin-ratelimit/mock'`;
// and the embedded store that the plugin runs in-process in development when no url is configured.
export { startKvRestServer, KV_REST_DEFAULTS } from './kv-rest/server';
export type { KvRestServer, KvRestServerOptions } from './kv-rest/server';
export type { Engine } from './kv-rest/engine';
export type { ResolvedCommand } from './kv-rest/resolved-command';
export { createEmbeddedStore } from './kv-rest/embedded-store';
export type { EmbeddedStore } from './kv-rest/embedded-store';
export { startWorkflowServer, WORKFLOW_DEFAULTS } from './workflow';
export type { WorkflowServer, WorkflowServerOptions, Run, RunState } from './workflow';
