// Test support for the memory engine: runs commands on a fresh engine and answers typed replies or
// plain values (tests/fixtures/plain-replies.ts), so expectations read like redis-cli.
import type { Caller, Engine } from '../../../mock/kv-rest/engine';
import { createMemoryEngine, type MemoryEngineOptions } from '../../../mock/kv-rest/memory';
import type { Reply } from '../../../mock/kv-rest/reply';
import { plain, type Plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';

export const CLIENT: Caller = { user: 'default', address: '127.0.0.1:50000' };

export interface EngineUnderTest {
  readonly engine: Engine;
  /** Runs one command and answers its plain value. */
  run(...args: (string | number)[]): Promise<Plain>;
  /** Runs one command and answers its typed reply. */
  reply(...args: (string | number)[]): Promise<Reply>;
  /** Runs commands as one transaction. */
  transaction(...commands: (string | number)[][]): Promise<Plain[]>;
}

export function engineUnderTest(options: MemoryEngineOptions & { caller?: Caller } = {}): EngineUnderTest {
  const engine = createMemoryEngine(options);
  const caller = options.caller ?? CLIENT;
  const reply = async (...args: (string | number)[]): Promise<Reply> => (await executeAsSent(engine, [args.map(String)], { transaction: false, caller }))[0];
  return {
    engine,
    reply,
    run: async (...args) => plain(await reply(...args)),
    transaction: async (...commands) =>
      (await executeAsSent(engine, commands.map((command) => command.map(String)), { transaction: true, caller })).map(plain),
  };
}

/** An engine per test, closed afterwards. */
export function useEngine(options: MemoryEngineOptions = {}): () => EngineUnderTest {
  let current: EngineUnderTest | undefined;
  beforeEach(() => {
    current = engineUnderTest(options);
  });
  afterEach(async () => {
    await current?.engine.close();
  });
  return () => current as EngineUnderTest;
}
