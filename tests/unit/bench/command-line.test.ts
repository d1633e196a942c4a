// The command a benchmark report prints is the one that reproduces it, flags included.
import { commandOf, namesAnOnlyWord, runOptions } from '../../../bench/command-line';

describe('the command a bench report prints', () => {
  it('adds the flags given after `--`, and nothing without flags', () => {
    expect([
      commandOf('npm run bench', { quick: false }),
      commandOf('npm run bench', { quick: true }),
      commandOf('npm run bench', { quick: false, only: 'strapi' }),
      commandOf('npm run bench:profile', { quick: true, only: 'embedded' }),
      commandOf('npm run bench', { quick: false, only: 'strapi', strapiRate: 400 }),
    ]).toEqual(['npm run bench', 'npm run bench -- --quick', 'npm run bench -- --only strapi', 'npm run bench:profile -- --quick --only embedded', 'npm run bench -- --only strapi --strapi-rate 400']);
  });
});

describe('the Strapi rows\' rate on the command line', () => {
  const optionsOf = (...flags: string[]) => {
    const argv = process.argv;
    process.argv = ['node', 'run.js', ...flags];
    try {
      return runOptions();
    } catch (refusal) {
      return (refusal as Error).message;
    } finally {
      process.argv = argv;
    }
  };

  it('is a whole number of requests per second, or refused naming the flag', () => {
    expect([optionsOf('--strapi-rate', '400'), optionsOf('--quick'), optionsOf('--strapi-rate', '0'), optionsOf('--strapi-rate', '2.5'), optionsOf('--strapi-rate', 'fast')]).toEqual([
      { quick: false, only: undefined, strapiRate: 400 },
      { quick: true, only: undefined },
      '--strapi-rate needs a whole number from 1 to 999999, not "0"',
      '--strapi-rate needs a whole number from 1 to 999999, not "2.5"',
      '--strapi-rate needs a whole number from 1 to 999999, not "fast"',
    ]);
  });
});

describe('the rows `--only` names', () => {
  it('are those whose name has one of its words, separated by |, in any case, or every row without it', () => {
    const names = ['plugin over redis://', 'plugin over REST, memory engine', 'plugin on the embedded store, denyList: false'];
    expect([undefined, 'redis://', 'redis://|denylist', 'TLS'].map((only) => names.filter((name) => namesAnOnlyWord(name, only)))).toEqual([
      names,
      ['plugin over redis://'],
      ['plugin over redis://', 'plugin on the embedded store, denyList: false'],
      [],
    ]);
  });
});
