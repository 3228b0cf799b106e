import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The console's own stylesheet, served under a name that holds a hash of its content: a browser
 * keeps it for a year, and a changed stylesheet is a new name that no cache holds yet.
 */
export const STYLESHEET = readFileSync(new URL('./console.css', import.meta.url), 'utf8');
export const STYLESHEET_PATH = `/console/assets/app.${createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 16)}.css`;
