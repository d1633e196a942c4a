// The command a benchmark report prints is the one that reproduces it, flags included.
import { commandOf, namesAnOnlyWord } from '../../../bench/command-line';

describe('the command a bench report prints', () => {
  it('adds the flags given after `--`, and nothing without flags', () => {
    expect([
      commandOf('npm run bench', { quick: false }),
      commandOf('npm run bench', { quick: true }),
      commandOf('npm run bench', { quick: false, only: 'strapi' }),
      commandOf('npm run bench:profile', { quick: true, only: 'embedded' }),
    ]).toEqual(['npm run bench', 'npm run bench -- --quick', 'npm run bench -- --only strapi', 'npm run bench:profile -- --quick --only embedded']);
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
