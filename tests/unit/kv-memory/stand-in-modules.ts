// TEMPORARY: stands in for other families' modules that are not written yet.
const empty = { setCommandHandlers: {}, sortedSetCommandHandlers: {}, bitmapCommandHandlers: {}, hyperloglogCommandHandlers: {} };
jest.mock('../../../mock/kv-rest/memory/commands/sets', () => empty, { virtual: true });
jest.mock('../../../mock/kv-rest/memory/commands/sorted-sets', () => empty, { virtual: true });
jest.mock('../../../mock/kv-rest/memory/commands/bitmaps', () => empty, { virtual: true });
jest.mock('../../../mock/kv-rest/memory/commands/hyperloglog', () => empty, { virtual: true });
