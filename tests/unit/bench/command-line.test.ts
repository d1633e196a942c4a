// The command a benchmark report prints is the one that reproduces it, flags included.
import { commandOf } from '../../../bench/command-line';

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
