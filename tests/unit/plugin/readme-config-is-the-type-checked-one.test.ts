// The README's quick-start config/plugins.ts is the file `npm run typecheck` compiles under `strict`
// (tests/types/readme-config-plugins.ts), so the README cannot drift into one that breaks a build
// (issue 16 item 1: the old example failed with TS7031 in a default TypeScript app).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

it("the README's config/plugins.ts is the type-checked one, verbatim", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const checked = readFileSync(path.join(ROOT, 'tests/types/readme-config-plugins.ts'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${checked}\`\`\``);
});
