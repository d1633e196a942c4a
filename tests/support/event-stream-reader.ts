// Test support: opens a key-value server's Server-Sent Events route (/monitor, /subscribe,
// /psubscribe) with a token, and collects its `data:` lines for the test to wait on.
import type { KvRestServer } from '../../mock';

/** Opens an SSE route and collects its `data:` lines until aborted. */
export async function openStream(server: KvRestServer, path: string, token = server.token) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  const reader = response.body!.getReader();
  void (async () => {
    let buffer = '';
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        for (const part of parts) if (part.startsWith('data: ')) lines.push(part.slice(6));
        waiters.splice(0).forEach((wake) => wake());
      }
    } catch {
      // Aborted by the test.
    }
  })();
  const waitFor = async (count: number): Promise<string[]> => {
    while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return lines;
  };
  return { response, lines, waitFor, close: () => controller.abort() };
}
