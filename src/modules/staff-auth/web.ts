import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import type { SessionWithUser } from './repository.ts';
import { SESSION_ABSOLUTE_MS } from './service.ts';

/** The session cookie (CONTRACT): HttpOnly, SameSite=Lax, Path=/, Secure behind an https ACADEMY_PUBLIC_URL. */
export const SESSION_COOKIE = 'academy_session';
/** A random value that the CSRF token of a form shown before sign-in is bound to. */
const CSRF_COOKIE = 'academy_csrf';

/**
 * What every console page sends: no inline script may run (scripts come from our own files only),
 * styles come from our one
 * stylesheet, forms post to this origin only, no other site may frame the page, no cache keeps it
 * and no Referer carries a token out of its URL.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export const STYLESHEET = readFileSync(new URL('./console.css', import.meta.url), 'utf8');
export const FAVICON = readFileSync(new URL('./favicon.svg', import.meta.url), 'utf8');
/** The console's script (passkeys), and the WebAuthn browser library it uses, served from the project. */
export const SCRIPT = readFileSync(new URL('./console.js', import.meta.url), 'utf8');
export const WEBAUTHN_SCRIPT = readFileSync(
  new URL(import.meta.resolve('@simplewebauthn/browser').replace(/esm\/index\.js$/, 'dist/bundle/index.umd.min.js')),
  'utf8',
);

/** An HTML fragment already escaped: pages are built from these and from `html` templates. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** A template whose interpolated values are escaped unless they are Html (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] as string;
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] as string);
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Sends a whole page: the layout around `body`, with the console's headers. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Html, signedIn?: SessionWithUser): FastifyReply {
  const header = signedIn
    ? html`<header class="bar"><span class="brand">Academy</span><span>${signedIn.user.name}</span></header>`
    : html`<header class="bar"><span class="brand">Academy</span></header>`;
  const page = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Academy</title><link rel="stylesheet" href="/console/assets/console.css"><link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml"><script src="/console/assets/webauthn.js" defer></script><script src="/console/assets/console.js" defer></script></head>
<body>${header}<main id="main"><h1>${title}</h1>${body}</main></body>
</html>
`;
  return reply.code(status).headers(PAGE_HEADERS).send(page.text);
}

/** A form field with its label; `error` is shown under it and tied to it for assistive technology. */
export function field(options: {
  name: string;
  label: string;
  type?: string;
  autocomplete?: string;
  value?: string;
  error?: string | undefined;
  hint?: string;
}): Html {
  const id = `f-${options.name}`;
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field"><label for="${id}">${options.label}</label>${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}"${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.value !== undefined ? html` value="${options.value}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${options.error ? html` aria-invalid="true"` : ''} required>${options.error ? html`<p class="error" id="${id}-error">${options.error}</p>` : ''}</div>`;
}

/** The hidden CSRF field of a form. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A one-button form that posts to `action` (sign out, end a session). */
export function buttonForm(action: string, label: string, csrf: string, kind: 'primary' | 'secondary' = 'secondary'): Html {
  return html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}<button type="submit" class="${kind}">${label}</button></form>`;
}

/** The cookies of a request. */
export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  const header = request.headers.cookie;
  return header ? parseCookie(header) : {};
}

/** 403: a state-changing request without a valid CSRF token changes nothing (CONTRACT). */
export class CsrfError extends AppError {
  constructor() {
    super(403, 'csrf_failed', 'The form has expired or did not come from this site: reload the page and try again.');
  }
}

/**
 * CSRF tokens: a MAC (under the secret key) of what the form is bound to, the session when there is
 * one, else a random cookie of the browser's. A token is worth nothing for another session or browser,
 * and none is stored.
 */
export function createCsrf(secrets: Pick<SecretBox, 'mac' | 'verifyMac'>, secure: boolean) {
  const binding = (request: FastifyRequest, session: SessionWithUser | null): string | undefined =>
    session ? `session:${session.session.id_hash}` : cookiesOf(request)[CSRF_COOKIE];
  return {
    /** The token for a form on this page, setting the browser's CSRF cookie first when needed. */
    token(request: FastifyRequest, reply: FastifyReply, session: SessionWithUser | null): string {
      let bound = binding(request, session);
      if (!bound) {
        bound = randomBytes(24).toString('base64url');
        reply.header(
          'set-cookie',
          stringifySetCookie({ name: CSRF_COOKIE, value: bound, httpOnly: true, sameSite: 'lax', path: '/', secure }),
        );
      }
      return secrets.mac('csrf', bound);
    },
    /** Refuses (403) a form whose `_csrf` is missing or not the token of this browser or session. */
    check(request: FastifyRequest, session: SessionWithUser | null): void {
      const bound = binding(request, session);
      const given = (request.body as Record<string, unknown> | undefined)?._csrf;
      if (!bound || typeof given !== 'string' || !secrets.verifyMac('csrf', bound, given)) throw new CsrfError();
    },
  };
}

export type Csrf = ReturnType<typeof createCsrf>;

/** The Set-Cookie of a new session, and of its end. */
export function sessionCookie(id: string, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: id,
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: '', httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: 0 });
}

/**
 * Where to go after signing in: `next` when it is a path of this site (one leading slash, no
 * backslash, no control character), else the console's home. Never another origin.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 500) return '/console';
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\p{Cc}]/u.test(next)) return '/console';
  return next;
}

/** The form body as fields (the console's forms are application/x-www-form-urlencoded). */
export function formOf(request: FastifyRequest): Record<string, string> {
  const body = request.body as Record<string, unknown> | undefined;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body ?? {})) if (typeof value === 'string') fields[name] = value;
  return fields;
}
