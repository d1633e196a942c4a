// Test support: suites that need a program installed on this machine (redis-server, Chromium) run
// where it is; elsewhere they skip and say why, unless CI requires the program (REQUIRE_<X>=1).
export interface InstalledProgram {
  /** The program as test names call it, e.g. `redis-server`. */
  readonly name: string;
  readonly installed: boolean;
  /** The environment variable that makes a missing program a failure instead of a skip, e.g. `REQUIRE_REDIS`. */
  readonly requiredBy: string;
}

/** `describe` when the program is installed; otherwise a skipped suite that says why, or a failing one when it is required. */
export function describeWithProgram(program: InstalledProgram, title: string, suite: () => void): void {
  const required = process.env[program.requiredBy] === '1';
  if (program.installed) describe(title, suite);
  else if (required) describe(title, () => it(`needs ${program.name} (${program.requiredBy}=1)`, () => expect(program.installed).toBe(true)));
  // Neither installed nor required (a local run): skipped, with the reason in the suite's name.
  else describe.skip(`${title} (skipped: ${program.name} is not installed)`, suite);
}
