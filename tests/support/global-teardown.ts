// Jest's global teardown (see jest.config.js): stops what the global setup started.
import { stopRedisForTheRun } from './redis-for-the-run';

export default stopRedisForTheRun;
