import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The product's version (package.json), on every log line and in `academy --version`. */
export const PRODUCT_VERSION = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The commit this copy was built from: ACADEMY_COMMIT when the deployment sets it (an image built
 * without its history), else read from the checkout's `.git` (HEAD, its ref, or the packed refs);
 * null when neither says.
 */
export function commitOf(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.ACADEMY_COMMIT && /^[0-9a-f]{7,40}$/.test(env.ACADEMY_COMMIT)) return env.ACADEMY_COMMIT;
  try {
    const git = path.join(root, '.git');
    const head = readFileSync(path.join(git, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
    if (!ref) return null;
    const loose = path.join(git, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
    const packed = readFileSync(path.join(git, 'packed-refs'), 'utf8');
    return (
      packed
        .split('\n')
        .find((line) => line.endsWith(` ${ref}`))
        ?.slice(0, 40) ?? null
    );
  } catch {
    return null;
  }
}
