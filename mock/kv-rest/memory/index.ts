// The embedded memory engine, the key-value REST server's default.
export { createMemoryEngine } from './memory-engine';
export type { MemoryEngineOptions } from './memory-engine';
