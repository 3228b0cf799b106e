import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

// Emails are now stored trimmed, lowercased and NFC-normalised, and look-alike forms are refused
// (src/platform/email.ts); the unique index on users.email, a plain one on both databases, then holds
// on that form. Rows written before were only trimmed and lowercased, so one mailbox could be held by
// several users: `<a@x.org>`, `"a"@x.org`, `a@x.org.`, a decomposed `é`, a fullwidth letter or an
// invisible character beside `a@x.org`. Each row is rewritten to the address its mailbox is reached
// by (the same rules, with the decorations taken off and compatibility forms folded, since a stored
// row cannot be refused), and so are the recipients of its notifications still queued.
//
// Rows that would become the same address are not merged: which account keeps the applications,
// enrolments, tokens and decisions is the operator's call, and rewriting only some of them would
// leave two accounts that a normalised look-up cannot tell apart. The migration stops instead, in
// its transaction (nothing is changed), naming each address and its users' ids; once all but one of
// each have another email (`PATCH /api/v1/users/{id}`, or SQL for a student), the next start runs it.
//
// The rules are written out here rather than imported: a migration must not change with the code.
// Every user's id and email is read once: a few megabytes at 100,000 users.
function mailbox(email: string): string {
  return email
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}\s]/gu, '')
    .toLowerCase()
    .replace(/^<(.*)>$/u, '$1')
    .replace(/["\p{Pi}\p{Pf}]/gu, '')
    .replace(/\.+$/u, '')
    .normalize('NFC');
}

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  const users: { id: number; email: string }[] = await db.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
  const holders = new Map<string, number[]>();
  for (const user of users) {
    const key = mailbox(user.email);
    holders.set(key, [...(holders.get(key) ?? []), Number(user.id)]);
  }
  const shared = [...holders].filter(([, ids]) => ids.length > 1);
  if (shared.length > 0) {
    const count = shared.length === 1 ? '1 address is' : `${shared.length} addresses are`;
    throw new Error(
      `${count} held by more than one user; nothing was changed. Give all but one user of each ` +
        `another email, then start again:\n${shared.map(([email, ids]) => `  ${email}: users ${ids.join(', ')}`).join('\n')}`,
    );
  }
  // A changed address is a change of the user (`updated_since`).
  const now = new Date().toISOString();
  for (const user of users) {
    const email = mailbox(user.email);
    if (email === user.email) continue;
    await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', user.id).execute();
    await db
      .updateTable('notifications')
      .set({ recipient: email })
      .where('user_id', '=', user.id)
      .where('status', '=', 'queued')
      .where('recipient', '=', user.email)
      .execute();
  }
}
