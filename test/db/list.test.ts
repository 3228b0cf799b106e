import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import type { Page } from '../../src/db/list.ts';
import type { DB } from '../../src/db/schema.ts';
import { createAssessmentRepository } from '../../src/modules/assessments/repository.ts';
import { createStudentRepository } from '../../src/modules/students/repository.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';

/** Page 3 of 4 rows: the last page, of 2 rows among 10 or 3 among 11, whichever state it is read in. */
const lastPage = { page: { page: 3, perPage: 4, offset: 8 }, sort: 'id' as const, direction: 'asc' as const };

/**
 * Reads the last page again and again for 1.5 s while another connection (as another process would)
 * adds a row to the list and removes it, again and again; returns the pages whose rows disagree with
 * their total.
 */
async function readWhileWriting(
  platform: Platform,
  read: () => Promise<Page<unknown>>,
  addAndRemove: (writer: Kysely<DB>) => Promise<void>,
): Promise<string[]> {
  const writer = openDatabase(platform.database.url);
  let writing = true;
  let writes = 0;
  const written = (async () => {
    while (writing) {
      await addAndRemove(writer.db);
      writes += 2;
    }
  })();
  // A failed write ends the writing; it is reported below, not left unhandled meanwhile.
  written.catch(() => {
    writing = false;
  });
  const seen: string[] = [];
  let reads = 0;
  try {
    // At least 1.5 s and 50 reads and writes each, however loaded the machine (at most 30 s).
    const started = Date.now();
    const enough = () => Date.now() - started >= 1500 && reads >= 50 && writes >= 50;
    while (writing && !enough() && Date.now() - started < 30_000) {
      const page = await read();
      reads++;
      if (page.items.length !== Math.max(0, Math.min(4, page.total - 8)))
        seen.push(`${page.items.length} rows beside a total of ${page.total}`);
    }
  } finally {
    writing = false;
    await written;
    await writer.close();
  }
  assert.ok(reads >= 50 && writes >= 50, `the page was read ${reads} times while ${writes} writes were committed`);
  return seen.length ? [`${seen.length} of ${reads} pages disagreed with their total, e.g. ${seen[0]}`] : [];
}

test('a page and its total describe one committed state, while another connection adds and removes rows', async () => {
  const platform = await createTestPlatform();
  const make = fixtures(platform);
  const session = await make.session();
  for (let i = 0; i < 10; i++) await make.assessment({ session_id: session.id });
  const assessments = createAssessmentRepository(platform.database.db);
  const disagreed = await readWhileWriting(
    platform,
    () => assessments.list(session.id, lastPage),
    async (writer) => {
      const now = new Date().toISOString();
      const { id } = await writer
        .insertInto('assessments')
        .values({ session_id: session.id, title: 'Coming and going', kind: 'exam', max_score: 100, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writer.deleteFrom('assessments').where('id', '=', id).execute();
    },
  );
  assert.deepEqual(disagreed, []);
});

test('so do a page of a list whose total is kept and that total, counted again after each write', async () => {
  const platform = await createTestPlatform();
  const make = fixtures(platform);
  const course = await make.course();
  for (let i = 0; i < 10; i++) await make.student({}, { courseId: course.id });
  // A user who becomes a student with an application, and stops being one without it.
  const candidate = await make.user();
  const students = createStudentRepository(platform.database.db, platform.database.dialect);
  const disagreed = await readWhileWriting(
    platform,
    () => students.list({}, lastPage),
    async (writer) => {
      const now = new Date().toISOString();
      const { id } = await writer
        .insertInto('course_applications')
        .values({ user_id: candidate.id, course_id: course.id, source: 'admin', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writer.deleteFrom('course_applications').where('id', '=', id).execute();
    },
  );
  assert.deepEqual(disagreed, []);
});
