import assert from 'node:assert/strict';
import { operatorContext } from '../../src/platform/context.ts';
import type { Role } from '../../src/platform/permissions.ts';
import { fixtures, unique } from './fixtures.ts';
import { type FormClient, formClient } from './forms.ts';
import type { TestApp } from './platform.ts';

export const STAFF_PASSWORD = 'quiet-harbour-lantern-1987';

export interface SignedIn {
  user: { id: number; name: string; email: string };
  browser: FormClient;
}

/**
 * An active staff user holding `roles` (granted as the administration grants them), signed in to
 * the console through the sign-in form in a browser of their own.
 */
export async function signedInStaff(app: TestApp, roles: Role[], name = unique('Staff')): Promise<SignedIn> {
  const user = await fixtures(app.platform).staff({ name });
  await app.services.users.grant(operatorContext(app.platform), user.id, { roles });
  await app.services.staffAuth.setPassword(app.platform.database.db, user.id, STAFF_PASSWORD);
  const browser = formClient(app.http);
  const res = await browser.submit('/console/sign-in', '/console/sign-in', {
    email: user.email,
    password: STAFF_PASSWORD,
    next: '/console',
  });
  assert.equal(res.statusCode, 303, `signing in ${user.email}: ${res.body}`);
  return { user: { id: user.id, name: user.name, email: user.email }, browser };
}

/** The value of the input named `name` on a page (as the browser would read it). */
export function inputValue(body: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(body)?.[0];
  const value = tag && /\bvalue="([^"]*)"/.exec(tag)?.[1];
  return value
    ?.replace(/&#34;|&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A page's text without its tags, blanks folded: what a reader sees. */
export function textOf(body: string): string {
  return body
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
