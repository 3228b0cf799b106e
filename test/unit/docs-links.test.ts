// Every relative link in README.md, CHANGELOG.md and docs/**/*.md names a file or folder that exists,
// and a link to a heading (`file.md#heading`, `#heading`) names a heading of that file.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function relativeLinks(file: string): string[] {
  const text = prose(readFileSync(file, 'utf8'));
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const files = [path.join(root, 'README.md'), path.join(root, 'CHANGELOG.md'), ...markdownFiles(path.join(root, 'docs'))];

describe('documentation links', () => {
  test('the slug of a heading is GitHub’s', () => {
    assert.equal(slug('Request path: `GET /organization`, one and two processes'), 'request-path-get-organization-one-and-two-processes');
    assert.equal(slug('The deploy/ files'), 'the-deploy-files');
    assert.equal(slug('Node.js flags'), 'nodejs-flags');
  });

  for (const file of files) {
    test(path.relative(root, file), () => {
      const broken: string[] = [];
      for (const link of relativeLinks(file)) {
        const [target = '', hash] = link.split('#', 2);
        const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
        if (!existsSync(resolved)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (hash !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchors(resolved).has(hash)) {
          broken.push(`${link}: no such heading`);
        }
      }
      assert.deepEqual(broken, [], `broken links in ${path.relative(root, file)}`);
    });
  }
});
