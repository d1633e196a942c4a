// Jest's global setup (see jest.config.js): what every test run needs before the first suite starts.
import { startRedisForTheRun } from './redis-for-the-run';

export default startRedisForTheRun;
