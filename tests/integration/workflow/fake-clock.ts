// Test support: jest's fake clock for setTimeout and Date only, so the workflow server's long waits
// pass in an instant while real sockets (served through setImmediate and Node's own timers) keep
// working, and a real-time pause for them to carry whatever the fake clock released.

const realSetTimeout = setTimeout;

export function useFakeClockWithRealSockets(): void {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'hrtime', 'performance', 'setInterval', 'clearInterval'] });
}

/** 150 ms of real time: ample for a loopback request and its answer. */
export const settle = (): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, 150));
