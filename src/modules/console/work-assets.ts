import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/**
 * The script of the upload form's progress (upload.js), served under a name that holds a hash of its
 * content, kept a year: a changed script is a new name. The form works without it.
 */
const UPLOAD_SCRIPT = readFileSync(new URL('./upload.js', import.meta.url), 'utf8');
export const UPLOAD_SCRIPT_PATH = `/console/assets/upload.${createHash('sha256').update(UPLOAD_SCRIPT).digest('hex').slice(0, 16)}.js`;

/** Registers the scripts of the approvals, documents and reports pages: open, as the stylesheet is. */
export function workAssets(app: FastifyInstance): void {
  app.get(UPLOAD_SCRIPT_PATH, { config: { access: 'open' }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(UPLOAD_SCRIPT),
  );
}
