// The redis engine: the REST API in front of a real redis-server.
export { createRedisEngine } from './redis-engine';
export type { RedisEngineOptions } from './redis-engine';
