// Every TypeScript example a reader copies compiles in a strict TypeScript app. The README's
// quick-start config/plugins.ts is the file `npm run typecheck` compiles (tests/types/readme-config-plugins.ts,
// beside the mistakes it must refuse), and every other ```ts block of README.md and docs/*.md is
// extracted and compiled here under the repository's strict tsconfig, the package's own name
// resolving to the declarations it ships (built by `npm test` first) (issue 16 item 1: the old quick start failed with TS7031 in a default
// TypeScript app; issue 28 item 3: the "complete config/plugins.ts" still did).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES_DIR = path.join(ROOT, '.tmp', 'doc-examples');

const documents = (): string[] => ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Each ```ts block of a Markdown text, with the line it starts on. */
function typeScriptBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let start = 0; start < lines.length; start += 1) {
    if (lines[start] !== '```ts') continue;
    const end = lines.indexOf('```', start + 1);
    blocks.push({ line: start + 1, code: lines.slice(start + 1, end).join('\n') });
    start = end;
  }
  return blocks;
}

/** The diagnostics of compiling each example as a module of its own, as "<file>: TSxxxx message". */
function compile(examples: readonly { name: string; code: string }[]): string[] {
  rmSync(EXAMPLES_DIR, { recursive: true, force: true });
  mkdirSync(EXAMPLES_DIR, { recursive: true });
  const files = examples.map(({ name, code }) => {
    const file = path.join(EXAMPLES_DIR, `${name.replace(/[^A-Za-z0-9]+/g, '-')}.ts`);
    writeFileSync(file, `${code}\nexport {};\n`);
    return file;
  });
  const { config } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const program = ts.createProgram(files, {
    ...options,
    noEmit: true,
    declaration: false,
    paths: { 'strapi-plugin-ratelimit': ['./dist/server/src/index.d.ts'], 'strapi-plugin-ratelimit/mock': ['./dist/mock/index.d.ts'] },
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${path.relative(EXAMPLES_DIR, diagnostic.file.fileName)}: ` : '';
    return `${where}TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

it("the README's config/plugins.ts is the type-checked one, verbatim", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const checked = readFileSync(path.join(ROOT, 'tests/types/readme-config-plugins.ts'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${checked}\`\`\``);
});

describe('every TypeScript example of the docs compiles under strict', () => {
  it('every ```ts block of README.md and docs/*.md compiles under strict', () => {
    const examples = documents().flatMap((document) =>
      typeScriptBlocks(readFileSync(path.join(ROOT, document), 'utf8')).map(({ line, code }) => ({ name: `${document}:${line}`, code })),
    );
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(compile(examples)).toEqual([]);
  }, 120_000);

  it('the check refuses the example that used to break a strict app (TS7031 on an untyped env)', () => {
    const untyped = "export default ({ env }) => ({ ratelimit: { config: { url: env('RATELIMIT_URL') } } });";
    expect(compile([{ name: 'untyped', code: untyped }])).toEqual([expect.stringMatching(/^untyped\.ts: TS7031 Binding element 'env' implicitly has an 'any' type/)]);
  }, 120_000);
});
