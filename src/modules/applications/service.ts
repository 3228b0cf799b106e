import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { EventSink } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { StudentRepository, UserRow } from '../students/repository.ts';
import type { ImportRow, ParsedImport } from './csv.ts';
import { type ApplicationRepository, CHUNK, type CourseRef, chunks } from './repository.ts';
import type { ApplicationCreate, CourseApplication, ImportSummary, RowError } from './schemas.ts';

/** Rows written per transaction by an import; each committed batch has its own event. */
export const IMPORT_BATCH = CHUNK;

/** Courses in this state take no new applications. */
const CLOSED_COURSE = 'archived';

export interface ImportOptions {
  dryRun: boolean;
  /** The file's name (no directories), recorded in the events. */
  source: string;
  /** Called after each written batch. */
  onProgress?: (progress: { written: number; total: number }) => void;
}

/** An import refused because of problems in the file; nothing was written. */
export class ImportRejectedError extends Error {
  readonly errors: RowError[];
  constructor(errors: RowError[], dryRun: boolean) {
    const shown = errors.slice(0, 100).map((e) => `  line ${e.line}: ${e.field ? `${e.field}: ` : ''}${e.message}`);
    const more = errors.length > shown.length ? [`  … and ${errors.length - shown.length} more`] : [];
    const lines = new Set(errors.map((e) => e.line)).size;
    const verdict = dryRun ? 'the import would be refused' : 'nothing was imported';
    super([`The file has problems on ${lines} line(s); ${verdict}. Fix them and run it again:`, ...shown, ...more].join('\n'));
    this.name = 'ImportRejectedError';
    this.errors = errors;
  }
}

export function createApplicationService(deps: {
  db: Kysely<DB>;
  applications: ApplicationRepository;
  students: StudentRepository;
  outbox: EventSink;
}) {
  const { db, applications, students } = deps;

  /** The rows' courses and users, and the problems the database reveals (unknown courses, staff emails). */
  async function check(rows: readonly ImportRow[]) {
    const courses = await applications.coursesBySlug(rows.map((r) => r.course));
    const users = new Map<string, UserRow>();
    for (const chunk of chunks([...new Set(rows.map((r) => r.email))])) {
      for (const user of await students.findUsersByEmail(db, chunk)) users.set(user.email, user);
    }
    const errors: RowError[] = [];
    for (const row of rows) {
      const course = courses.get(row.course);
      if (!course) errors.push({ line: row.line, field: 'course', message: `No course has the slug "${row.course}".` });
      else if (course.status === CLOSED_COURSE) {
        errors.push({ line: row.line, field: 'course', message: `The course "${row.course}" is archived and takes no applications.` });
      }
      if (users.get(row.email)?.is_admin) {
        errors.push({ line: row.line, field: 'email', message: `${row.email} belongs to a staff user; staff cannot apply to courses.` });
      }
    }
    return { courses, users, errors };
  }

  /** Counts what writing would do, without writing (`--dry-run`). */
  async function plan(rows: readonly ImportRow[], courses: Map<string, CourseRef>, users: Map<string, UserRow>): Promise<ImportSummary> {
    const pairs = await applications.existingPairs(
      db,
      [...users.values()].map((u) => u.id),
    );
    const seen = new Set<string>();
    const summary = emptySummary(true, rows.length);
    const newEmails = new Set<string>();
    for (const row of rows) {
      const key = `${row.email}:${row.course}`;
      if (seen.has(key)) {
        summary.duplicate_rows += 1;
        continue;
      }
      seen.add(key);
      const user = users.get(row.email);
      if (!user) newEmails.add(row.email);
      if (user && pairs.has(`${user.id}:${courses.get(row.course)?.id}`)) summary.applications_existing += 1;
      else summary.applications_created += 1;
    }
    summary.students_created = newEmails.size;
    summary.students_existing = new Set(rows.filter((r) => users.has(r.email)).map((r) => r.email)).size;
    return summary;
  }

  return {
    /**
     * Adds a student's application to a course (`academy admin applications create`); an existing
     * application of the pair is returned unchanged, so the command can be repeated safely.
     */
    async create(ctx: ServiceContext, input: ApplicationCreate): Promise<{ application: CourseApplication; created: boolean }> {
      requirePermission(ctx, 'students.manage');
      const errors: Record<string, string[]> = {};
      const user = await students.findUser(db, input.student_id);
      if (!user) errors.student_id = [`No user has the id ${input.student_id}.`];
      else if (user.is_admin) errors.student_id = [`User ${input.student_id} is staff; staff cannot apply to courses.`];
      const slug = input.course.toLowerCase();
      const course = (await applications.coursesBySlug([slug])).get(slug);
      if (!course) errors.course = [`No course has the slug "${slug}".`];
      else if (course.status === CLOSED_COURSE) errors.course = [`The course "${slug}" is archived and takes no applications.`];
      if (!user || !course || Object.keys(errors).length > 0) throw new ValidationError(errors);

      const now = ctx.clock.now().toISOString();
      const { id: userId } = user;
      const { id: courseId } = course;
      return db.transaction().execute(async (trx) => {
        const inserted = await applications.insertMissing(trx, [{ user_id: userId, course_id: courseId, source: 'admin', now }]);
        if (inserted.length > 0) await students.touch(trx, [userId], now);
        const application = await applications.find(trx, userId, courseId);
        if (!application) throw new Error('The application vanished while it was being created');
        if (inserted.length > 0) {
          await audit.record(trx, ctx, {
            action: 'course_application.created',
            subject: { type: 'course_application', id: application.id },
            changes: audit.changes(null, application),
          });
        }
        return { application, created: inserted.length > 0 };
      });
    },

    async list(_ctx: ServiceContext, limit: number) {
      return applications.list(limit);
    },

    /**
     * Imports students and their applications from a checked file. Every row is checked first, also
     * against the database; any problem refuses the whole file before anything is written. Then rows
     * are written in batches of IMPORT_BATCH, one transaction each: users are matched by email
     * (existing ones are left unchanged) or created, applications that exist are skipped, so running
     * the same file again creates nothing. Each batch that creates applications writes one
     * `course_application.imported` event in its own transaction, so every committed application is
     * announced exactly once, even when a later batch fails.
     */
    async import(ctx: ServiceContext, parsed: ParsedImport, options: ImportOptions): Promise<ImportSummary> {
      requirePermission(ctx, 'students.manage');
      const { rows } = parsed;
      const { courses, users, errors } = await check(rows);
      const problems = [...parsed.errors, ...errors].sort((a, b) => a.line - b.line);
      if (problems.length > 0) throw new ImportRejectedError(problems, options.dryRun);
      if (options.dryRun) return plan(rows, courses, users);

      const importId = `imp_${randomBytes(9).toString('base64url')}`;
      const summary = emptySummary(false, parsed.total);
      const seen = new Set<string>();
      for (const row of rows) {
        const key = `${row.email}:${row.course}`;
        if (seen.has(key)) summary.duplicate_rows += 1;
        seen.add(key);
      }
      // Emails of users this import created, so that a later batch does not count them as existing.
      const createdHere = new Set<string>();
      const matched = new Set<string>();
      const batches = chunks(rows, IMPORT_BATCH);
      let written = 0;
      for (const [index, batch] of batches.entries()) {
        const counts = await db.transaction().execute(async (trx) => {
          const now = ctx.clock.now().toISOString();
          const emails = [...new Set(batch.map((r) => r.email))];
          const known = new Map((await students.findUsersByEmail(trx, emails)).map((u) => [u.email, u]));
          const firstRowOf = new Map<string, ImportRow>();
          for (const row of batch) if (!known.has(row.email) && !firstRowOf.has(row.email)) firstRowOf.set(row.email, row);
          const created = await students.insertUsers(
            trx,
            [...firstRowOf.values()].map((row) => ({ name: row.name, email: row.email, email_verified: row.email_verified, now })),
          );
          // Users another process created in the meantime are matched like any other.
          const all = new Map((await students.findUsersByEmail(trx, emails)).map((u) => [u.email, u]));
          for (const user of created) createdHere.add(user.email);
          for (const email of emails) if (known.has(email) && !createdHere.has(email)) matched.add(email);
          const staff = [...all.values()].find((u) => u.is_admin);
          if (staff) throw new Error(`${staff.email} became a staff user during the import; the batch was not written.`);
          const pairs = new Map<string, { user_id: number; course_id: number; course: string }>();
          for (const row of batch) {
            const user = all.get(row.email);
            const course = courses.get(row.course);
            if (user && course) pairs.set(`${user.id}:${course.id}`, { user_id: user.id, course_id: course.id, course: course.slug });
          }
          const inserted = await applications.insertMissing(
            trx,
            [...pairs.values()].map((p) => ({ user_id: p.user_id, course_id: p.course_id, source: 'import' as const, now })),
          );
          await students.touch(trx, [...new Set(inserted.map((a) => a.user_id))], now);
          if (inserted.length > 0) {
            await deps.outbox.emit(trx, 'course_application.imported', {
              import_id: importId,
              source: options.source,
              batch: index + 1,
              batches: batches.length,
              students_created: created.length,
              applications_created: inserted.length,
              applications: inserted.map((a) => ({
                id: a.id,
                student_id: a.user_id,
                course_id: a.course_id,
                course: pairs.get(`${a.user_id}:${a.course_id}`)?.course ?? null,
              })),
            });
          }
          // One event per committed batch, as its domain event: the file's import is the change.
          if (inserted.length > 0 || created.length > 0) {
            await audit.record(trx, ctx, {
              action: 'course_application.imported',
              subject: { type: 'course_application_import', id: null },
              changes: {
                import_id: [null, importId],
                source: [null, options.source],
                batch: [null, index + 1],
                students_created: [null, created.length],
                applications_created: [null, inserted.length],
              },
            });
          }
          return { students: created.length, applications: inserted.length, pairs: pairs.size };
        });
        summary.students_created += counts.students;
        summary.applications_created += counts.applications;
        written += batch.length;
        options.onProgress?.({ written, total: rows.length });
      }
      summary.students_existing = matched.size;
      summary.applications_existing = rows.length - summary.duplicate_rows - summary.applications_created;
      ctx.logger.info({ importId, ...summary }, 'applications imported');
      return summary;
    },
  };
}

function emptySummary(dryRun: boolean, rows: number): ImportSummary {
  return {
    dry_run: dryRun,
    rows,
    students_created: 0,
    students_existing: 0,
    applications_created: 0,
    applications_existing: 0,
    duplicate_rows: 0,
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
