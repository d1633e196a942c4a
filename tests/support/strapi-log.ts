// Test support: what Strapi's logger (winston) prints while a test boots an app, read at its console
// transport, so lines are seen whichever way jest's worker console then prints them (or not).
export interface LoggedLine {
  readonly level: string;
  readonly message: string;
}

type ConsoleTransport = { prototype: { log(info: Record<string | symbol, unknown>, next: () => void): void } };

/** Starts recording; call `restore()` (in afterAll) to stop. Lines are `{ level, message }` without colours. */
export function watchStrapiLog(): { readonly lines: LoggedLine[]; restore(): void } {
  const consoleTransport = require(require.resolve('winston/lib/winston/transports/console', { paths: [require.resolve('@strapi/logger')] })) as ConsoleTransport;
  const lines: LoggedLine[] = [];
  const spy = jest.spyOn(consoleTransport.prototype, 'log').mockImplementation((info, next) => {
    lines.push({ level: String(info[Symbol.for('level')]), message: String(info.message) });
    next();
  });
  return { lines, restore: () => spy.mockRestore() };
}
