import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, mapPage, type Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { SEARCH_SOURCES } from '../../db/search.ts';
import { LOOKUP_CHARACTERS, sampleForSearch } from '../../db/trigrams.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { normaliseEmail } from '../../platform/email.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { StudentFilter, StudentRepository, StudentRow, StudentWithCourses } from './repository.ts';
import type { Student, StudentCreate, StudentSort } from './schemas.ts';

export function presentStudent(row: StudentRow, courses: readonly string[]): Student {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    email_verified: row.email_verified,
    courses: [...courses],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A listed student (a row with its courses), as a function of the module: mapPage keeps a kept page's mapped once per function. */
const presentRow = (row: StudentWithCourses): Student => presentStudent(row, row.courses);

/** The users' search text, sampled to choose the parts of a long text to look up (src/db/trigrams.ts). */
const USERS_SAMPLE = { users: SEARCH_SOURCES.users };

export function createStudentService(deps: { db: Kysely<DB>; dialect: Dialect; students: StudentRepository }) {
  const { students, db, dialect } = deps;

  return {
    async list(ctx: ServiceContext, filter: StudentFilter, list: ListRequest<StudentSort>): Promise<Page<Student>> {
      const search = filter.search?.trim().toLowerCase();
      // A long text that the trigram index looks up is looked up by its rarest parts, chosen from a
      // sample of the users, as GET /search does: `.123@learners` read the lists of `lea`, `ear`, …,
      // which every student's email holds (113 ms at a million students on PostgreSQL; 3 ms by `.123@`).
      if (search && [...search].length > LOOKUP_CHARACTERS + 1) {
        await sampleForSearch(db, dialect, USERS_SAMPLE, (error) =>
          ctx.logger.warn({ err: error }, 'Students could not sample the users; texts are looked up whole.'),
        );
      }
      const page = await students.list({ ...filter, search: search || undefined }, list);
      return mapPage(page, presentRow);
    },

    /** A student by id; staff users and users without an application are the same 404 as a missing id. */
    async get(_ctx: ServiceContext, id: number): Promise<Student> {
      const row = await students.findStudent(id);
      if (!row) throw new NotFoundError();
      return presentStudent(row, row.courses);
    },

    /**
     * Creates the user that becomes a student with a first course application
     * (`academy admin students create`); until then the API does not list it.
     */
    async create(ctx: ServiceContext, input: StudentCreate): Promise<Student> {
      requirePermission(ctx, 'students.manage');
      const name = input.name.trim();
      const email = normaliseEmail(input.email);
      const taken = () => ValidationError.field('email', `The email ${email} is already taken by another user.`);
      if ((await students.findUsersByEmail(deps.db, [email])).length > 0) throw taken();
      const now = ctx.clock.now().toISOString();
      const [user] = await deps.db.transaction().execute(async (trx) => {
        const created = await students.insertUsers(trx, [{ name, email, email_verified: input.email_verified ?? false, now }]);
        for (const row of created) {
          await audit.record(trx, ctx, {
            action: 'student.created',
            subject: { type: 'student', id: row.id },
            changes: audit.changes(null, presentStudent(row, [])),
          });
        }
        return created;
      });
      // Taken between the check and the insert (the unique index decides).
      if (!user) throw taken();
      ctx.logger.info({ userId: user.id }, 'student created');
      return presentStudent(user, []);
    },
  };
}

export type StudentService = ReturnType<typeof createStudentService>;
