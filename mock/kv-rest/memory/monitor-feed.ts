// MONITOR for the memory engine: formats each executed command the way Redis does
// (`1721284005.242090 [0 127.0.0.1:52144] "GET" "k"`, arguments escaped like sdscatrepr) and hands
// the line to every monitor. Lines are only built when someone is watching.
export type MonitorListener = (line: string) => void;

/** Redis's sdscatrepr: a double-quoted string with `\\ \" \n \r \t \a \b` and `\xHH` escapes. */
export function quoteLikeRedis(bytes: string): string {
  let quoted = '"';
  for (let index = 0; index < bytes.length; index++) {
    const char = bytes[index];
    const code = bytes.charCodeAt(index);
    if (char === '\\' || char === '"') quoted += `\\${char}`;
    else if (char === '\n') quoted += '\\n';
    else if (char === '\r') quoted += '\\r';
    else if (char === '\t') quoted += '\\t';
    else if (code === 7) quoted += '\\a';
    else if (code === 8) quoted += '\\b';
    else if (code >= 32 && code <= 126) quoted += char;
    else quoted += `\\x${code.toString(16).padStart(2, '0')}`;
  }
  return `${quoted}"`;
}

/** Seconds and microseconds since the epoch, as `1721284005.242090`. */
function timestamp(): string {
  const micros = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
  return `${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`;
}

export class MonitorFeed {
  private readonly listeners = new Set<MonitorListener>();

  get active(): boolean {
    return this.listeners.size > 0;
  }

  add(listener: MonitorListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `source` is the client's `ip:port`, or `lua` for commands a script runs. */
  feed(args: readonly string[], source: string): void {
    if (this.listeners.size === 0) return;
    const line = `${timestamp()} [0 ${source}] ${args.map(quoteLikeRedis).join(' ')}`;
    for (const listener of this.listeners) {
      try {
        listener(line);
      } catch {
        // A monitor whose stream broke must not fail the command being monitored.
      }
    }
  }
}
