import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { remakeTerms } from '../../src/db/student-terms.ts';
import type { SearchGroup } from '../../src/modules/manifest.ts';
import { createSearchService } from '../../src/modules/search/service.ts';
import { usersModule } from '../../src/modules/users/module.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';

// The staff group of GET /search reads the staff a text names from their terms on PostgreSQL
// (`staff_terms`, migration 0041), from its FTS5 index on SQLite, and the trigram index for a text
// that may lie in digits, a domain or across words. Every way must give exactly the staff whose name
// or email contains the text, by id, and follow the writes that change a staff user's words.
describe('GET /search: the staff group through their terms', () => {
  let platform: Platform;
  let make: Fixtures;
  // Letters alone, new to the database: every text searched holds it (tests share PostgreSQL's).
  const tag = `s${Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x')}`;
  const ids: number[] = [];
  let search: (q: string, limit: number) => Promise<{ total: number; ids: number[] }>;

  before(async () => {
    platform = await createTestPlatform();
    make = fixtures(platform);
    const group = usersModule.search[0] as SearchGroup;
    const service = createSearchService(platform, [group], { keep: false });
    search = async (q, limit) => {
      const result = (await service.search(operatorContext(platform), { q, limit }))[group.name] as {
        total: number;
        items: { id: number }[];
      };
      return { total: result.total, ids: result.items.map((item) => item.id) };
    };
    const people: [string, string][] = [
      [`Grace ${tag}hopper`, `grace.${tag}hopper.1@${tag}navy.test`],
      [`${tag.toUpperCase()}HOPPER Quinn`, `quinn.2@staff.test`],
      [`Ünal ${tag}öztürk`, `unal.${tag}ozturk.3@staff.test`],
      [`Ada ${tag}lovelace-byron`, `ada.4@staff.test`],
      [`Agent 007`, `${tag}agent.007@staff.test`],
    ];
    for (const [name, email] of people) ids.push((await make.staff({ name, email })).id);
    // Many staff share one word: a page is the first of more than it shows.
    for (let i = 0; i < 12; i++) ids.push((await make.staff({ name: `Member ${tag}crowd`, email: `m${i}.${tag}crowd@staff.test` })).id);
    // A student holds the words too and is never in the staff group.
    await make.student({ name: `Student ${tag}hopper`, email: `student.${tag}hopper@learners.test` });
  });

  after(async () => {
    await platform.close();
  });

  /** The staff whose name or email contains `text`, by the definition, in id order. */
  const expected = async (text: string) => {
    const needle = text.toLowerCase();
    const rows = await platform.database.db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where(sql<boolean>`users.is_admin = true`)
      .orderBy('id')
      .execute();
    return rows.filter((r) => `${r.name}\u001f${r.email}`.toLowerCase().includes(needle)).map((r) => Number(r.id));
  };

  /** Every text asked with two limits, each answer compared with the definition's. */
  const exact = async (texts: string[]) => {
    for (const text of texts) {
      const all = await expected(text);
      for (const limit of [3, 20]) {
        const got = await search(text, limit);
        assert.deepEqual(got, { total: all.length, ids: all.slice(0, limit) }, `${text} (limit ${limit})`);
      }
    }
  };

  const TEXTS = () => [
    `${tag}hopper`, // a word
    `${tag}hop`, // a prefix
    `${tag.toUpperCase()}HOPPER`, // case folded
    `${tag}öztürk`, // beyond ASCII
    `${tag}ozturk`, // only in an email
    `e ${tag}hop`, // across a pair of words
    `${tag}navy.test`, // in a domain
    `${tag}agent.007`, // across a dot, with digits
    `${tag}crowd`, // many staff
    `${tag}lovelace-by`, // a word's hyphen
    `${tag}nobody`, // none
  ];

  test('every way gives exactly the staff that contain the text, by id', async () => {
    await exact(TEXTS());
  });

  test('the terms follow renames, new emails, staff rights and deletes in the writing transaction', async () => {
    const { db, dialect } = platform.database;
    const yes = dialect === 'sqlite' ? 1 : true;
    const no = dialect === 'sqlite' ? 0 : false;
    const at = (n: number) => ids[n] as number;
    // Quinn takes a new surname; Ünal a new email; a crowd member leaves the staff; a student joins it.
    await db
      .updateTable('users')
      .set({ name: `Quinn ${tag}hopperton` })
      .where('id', '=', at(1))
      .execute();
    await db
      .updateTable('users')
      .set({ email: `unal.${tag}hopperton.3@staff.test` })
      .where('id', '=', at(2))
      .execute();
    await db
      .updateTable('users')
      .set({ is_admin: no as never })
      .where('id', '=', at(5))
      .execute();
    const joined = await make.student({ name: `Joiner ${tag}crowd`, email: `joiner.${tag}crowd@learners.test` });
    await db
      .updateTable('users')
      .set({ is_admin: yes as never })
      .where('id', '=', joined.id)
      .execute();
    const gone = await make.staff({ name: `Gone ${tag}crowd`, email: `gone.${tag}crowd@staff.test` });
    await db.deleteFrom('users').where('id', '=', gone.id).execute();
    await exact([...TEXTS(), `${tag}hopperton`, `n ${tag}hopperton`]);
    assert.equal((await search(`${tag}crowd`, 50)).ids.includes(joined.id), true);
    assert.equal((await search(`${tag}crowd`, 50)).ids.includes(at(5)), false);
    if (dialect !== 'postgres') return;
    // The terms the triggers left are those a remake from the users gives.
    const held = async () =>
      (
        await sql<{ term: string; id: number }>`select term, id from staff_terms where term like ${`%${tag}%`} order by term, id`.execute(
          db,
        )
      ).rows.map((r) => `${r.term} ${Number(r.id)}`);
    const written = await held();
    assert.ok(written.includes(`${tag}hopperton ${at(1)}`), 'a rename');
    assert.ok(written.includes(`${tag}hopperton ${at(2)}`), 'a new email');
    assert.ok(!written.some((term) => term.endsWith(` ${at(5)}`)), 'a user who left the staff');
    assert.ok(written.includes(`${tag}crowd ${joined.id}`), 'a student who joined the staff');
    await remakeTerms(db, dialect);
    assert.deepEqual(await held(), written);
  });
});
