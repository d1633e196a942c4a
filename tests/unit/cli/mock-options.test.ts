// The `mock` command's options: flags win over environment variables, bad values are usage errors
// that name the flag and its variable.
import { mockUsage, parseMockOptions, UsageError } from '../../../mock/cli/options';

describe('mock command options', () => {
  it('reads flags and environment variables, flags first', () => {
    const options = parseMockOptions(['--kv-port', '0', '--token', 'from-flag'], { MOCK_KV_TOKEN: 'from-env', MOCK_PREFIX: 'Svc', MOCK_DAILY_LIMIT: '10' });
    expect(options).toEqual({ kvPort: 0, token: 'from-flag', prefix: 'Svc', dailyLimit: 10, help: false });
  });

  it.each([
    [['--kv-port', '70000'], /--kv-port \(MOCK_KV_PORT\): "70000" is not a port number/],
    [['--daily-limit=-1'], /--daily-limit \(MOCK_DAILY_LIMIT\): "-1" is not a whole number/],
    [['--nope'], /Unknown option '--nope'/],
    [['--engine', 'postgres'], /--engine \(MOCK_ENGINE\): "postgres" is not memory or redis/],
    [['--retry-time-scale', '0'], /--retry-time-scale \(MOCK_RETRY_TIME_SCALE\): "0" is not a positive number/],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseMockOptions(argv, {})).toThrow(UsageError);
    expect(() => parseMockOptions(argv, {})).toThrow(message);
  });

  it('refuses a bad value from the environment, naming the variable', () => {
    expect(() => parseMockOptions([], { MOCK_KV_PORT: 'abc' })).toThrow(/MOCK_KV_PORT/);
  });

  it('lists every option with its environment variable in the help text', () => {
    const usage = mockUsage();
    for (const name of ['--host', '--kv-port', '--token', '--readonly-token', '--prefix', '--max-request-bytes', '--daily-limit', '--engine', '--redis-url', '--redis-timeout-ms', '--max-response-bytes', '--max-stream-buffer-bytes', '--headers-timeout-ms', '--request-timeout-ms', '--max-connections', '--workflow-port', '--workflow-token', '--signing-key', '--next-signing-key', '--retry-time-scale']) expect(usage).toContain(name);
    expect(usage).toContain('MOCK_KV_PORT');
  });
});
