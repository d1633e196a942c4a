// Issue 34 review of finding 7: the key-value server took lingerTimeoutMs and maxLingerBytes (and its
// other connection bounds) as given, where the workflow server range-checks them; 0 or NaN destroyed
// the socket with its 413 unread (the EPIPE finding 7 removed). Now each is refused at start with a
// RangeError naming the option, as the workflow server does.
import { startOutcome } from '../../support/kv-servers';

describe('the key-value server', () => {
  it('refuses a linger bound or connection bound of 0, NaN or a fraction, naming the option', async () => {
    const outcomes = [];
    for (const options of [{ lingerTimeoutMs: 0 }, { maxLingerBytes: Number.NaN }, { maxLingerBytes: 0 }, { headersTimeoutMs: 0 }, { maxConnections: 1.5 }]) outcomes.push(await startOutcome(options));
    expect(outcomes).toEqual([
      'RangeError: key-value server option lingerTimeoutMs must be a whole number of at least 1, got 0',
      'RangeError: key-value server option maxLingerBytes must be a whole number of at least 1, got NaN',
      'RangeError: key-value server option maxLingerBytes must be a whole number of at least 1, got 0',
      'RangeError: key-value server option headersTimeoutMs must be a whole number of at least 1, got 0',
      'RangeError: key-value server option maxConnections must be a whole number of at least 1, got 1.5',
    ]);
  });

  it('starts with bounds of 1 and with options left undefined', async () => {
    expect([await startOutcome({ lingerTimeoutMs: 1, maxLingerBytes: 1 }), await startOutcome({ lingerTimeoutMs: undefined })]).toEqual(['started', 'started']);
  });
});
