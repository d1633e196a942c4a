// The English translations the admin bundles (admin/src/translations/en.json) against the messages
// the page's code words: a built admin shows en.json, development shows the code's defaults, so the
// two must say the same, and en.json carries no message the page no longer shows.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ADMIN_SRC = path.join(__dirname, '../../../admin/src');
// `t('id', 'default'` (useTranslate) and `getTranslation('id'), defaultMessage: 'default'` (formatMessage).
const MESSAGE = /\bt\(\s*'([\w.]+)',\s*'((?:[^'\\]|\\.)*)'|getTranslation\('([\w.]+)'\),\s*defaultMessage:\s*'((?:[^'\\]|\\.)*)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function messagesInCode(): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const file of sourceFiles(ADMIN_SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(MESSAGE)) {
      const [id, text] = match[1] !== undefined ? [match[1], match[2]] : [match[3], match[4]];
      messages[id] = text.replace(/\\'/g, "'");
    }
  }
  return messages;
}

it('en.json holds exactly the messages the admin page words, with the same English text', () => {
  const bundled = JSON.parse(readFileSync(path.join(ADMIN_SRC, 'translations/en.json'), 'utf8')) as Record<string, string>;
  const inCode = messagesInCode();
  expect(Object.keys(inCode).length).toBeGreaterThan(50);
  expect(Object.fromEntries(Object.entries(bundled).sort())).toEqual(Object.fromEntries(Object.entries(inCode).sort()));
});
