// The public-API example of docs/tiers.md is the file `npm run typecheck` compiles under `strict`
// (tests/types/docs-tiers-config-plugins.ts), so the page cannot drift into a config that fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

it("docs/tiers.md's config/plugins.ts is the type-checked one, verbatim", () => {
  const page = readFileSync(path.join(ROOT, 'docs/tiers.md'), 'utf8');
  const checked = readFileSync(path.join(ROOT, 'tests/types/docs-tiers-config-plugins.ts'), 'utf8');
  expect(page).toContain(`\`\`\`ts\n${checked}\`\`\``);
});
