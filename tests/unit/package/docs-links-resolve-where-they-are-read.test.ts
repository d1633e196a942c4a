// Every link of README.md and docs/*.md resolves where the reader is: on the registry's page and in
// node_modules only the files the package ships exist, so a relative link must name a file that
// package.json `files` ships, and a `#anchor` a heading of its target (GitHub's slugs, which the
// registry uses too). Links with a scheme (https:) are the reader's browser's business
// (issue 28 item 6: links into bench/, .ci/ and tests/ were dead outside the repository).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const shipped = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;

const documents = (): string[] => ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text outside fenced code blocks and code spans, where Markdown reads links. */
const prose = (markdown: string): string => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} +(.+)$/gm)) {
    const slug = heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    let anchor = slug;
    for (let repeat = 1; anchors.has(anchor); repeat += 1) anchor = `${slug}-${repeat}`;
    anchors.add(anchor);
  }
  return anchors;
}

const isShipped = (file: string): boolean => shipped.some((entry) => file === entry || file.startsWith(`${entry}/`));

/** Each link of `document` (a path from the package root) that does not resolve, with why. */
function deadLinks(document: string, markdown: string, read: (file: string) => string | undefined): string[] {
  const dead: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file === '' ? document : path.posix.normalize(path.posix.join(path.posix.dirname(document), file));
    const text = read(resolved);
    if (text === undefined) dead.push(`${document}: ${target} (no such file)`);
    else if (!isShipped(resolved)) dead.push(`${document}: ${target} (${resolved} is not in package.json files)`);
    else if (anchor !== undefined && !anchorsOf(text).has(anchor)) dead.push(`${document}: ${target} (no heading #${anchor})`);
  }
  return dead;
}

const readFromPackage = (file: string): string | undefined => {
  const absolute = path.join(ROOT, file);
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
};

describe('links of the README and docs lead only into files the package ships', () => {
  it('every relative link and #anchor of README.md and docs/*.md resolves among the shipped files', () => {
    const dead = documents().flatMap((document) => deadLinks(document, readFromPackage(document)!, readFromPackage));
    expect(dead).toEqual([]);
  });

  it('the docs pages ship with the package', () => {
    expect(documents().filter((document) => !isShipped(document))).toEqual([]);
  });

  it('the checker finds a link to an unshipped file, a missing file and a missing heading', () => {
    const files: Record<string, string> = { 'README.md': '# Title\n## Two words\n', 'bench/RESULTS.md': '# Results\n' };
    const markdown = '[a](bench/RESULTS.md) [b](docs/none.md) [c](#no-such) [d](#two-words) [e](https://example.com/x) `[f](#in-code)`';
    expect(deadLinks('README.md', markdown, (file) => files[file])).toEqual([
      'README.md: bench/RESULTS.md (bench/RESULTS.md is not in package.json files)',
      'README.md: docs/none.md (no such file)',
      'README.md: #no-such (no heading #no-such)',
    ]);
  });
});
