// The workflow trigger server, for users' tests: `import { startWorkflowServer } from 'strapi-plugin-ratelimit/mock'`.
export { startWorkflowServer, WORKFLOW_DEFAULTS } from './server';
export type { WorkflowServer, WorkflowServerOptions } from './server';
export type { Run, RunState, Attempt, RunPage } from './runs';
