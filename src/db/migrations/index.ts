import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_background.ts';
import * as m0003 from './0003_builtin_tasks_and_checks.ts';
import * as m0004 from './0004_unique_integration_messages.ts';
import * as m0005 from './0005_catalogue.ts';
import * as m0006 from './0006_session_advance_task.ts';
import * as m0009 from './0009_people.ts';
import * as m0010 from './0010_workflows.ts';
import * as m0012 from './0012_search.ts';
import * as m0013 from './0013_documents_reports.ts';
import * as m0014 from './0014_enrolments_by_student.ts';
import * as m0015 from './0015_job_request_ids.ts';
import * as m0016 from './0016_enrolment_list_indexes.ts';
import * as m0017 from './0017_users_search_text.ts';
import * as m0018 from './0018_idempotency_body_digest.ts';
import * as m0019 from './0019_task_schedule_timezone.ts';
import * as m0020 from './0020_users_staff_by_id.ts';
import * as m0021 from './0021_idempotency_committed.ts';
import * as m0022 from './0022_normalised_emails.ts';
import * as m0023 from './0023_user_roles.ts';
import * as m0024 from './0024_staff_sign_in.ts';
import * as m0025 from './0025_audit_events.ts';
import * as m0026 from './0026_passkeys.ts';
import * as m0027 from './0027_students_counted.ts';
import * as m0029 from './0029_staff_orders.ts';
import * as m0030 from './0030_staff_search.ts';
import * as m0031 from './0031_student_marks.ts';
import * as m0032 from './0032_student_terms.ts';
import * as m0033 from './0033_staff_search_staff_only.ts';
import * as m0034 from './0034_student_pairs.ts';
import * as m0035 from './0035_students_on_staff.ts';
import * as m0036 from './0036_certificates_by_student.ts';
import * as m0037 from './0037_walks_from_the_index.ts';
import * as m0038 from './0038_terms_by_student.ts';
import * as m0039 from './0039_certificates_by_holder_terms.ts';
import * as m0040 from './0040_staff_status_id.ts';
import * as m0041 from './0041_staff_terms.ts';
import * as m0042 from './0042_enrolments_by_holder_terms.ts';

type Step = {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
  /**
   * PostgreSQL: tables the migration filled, vacuumed and analysed once it has committed (VACUUM
   * cannot run in its transaction): their index-only reads need the visibility map, which
   * autovacuum would otherwise make minutes later.
   */
  vacuumAfter?: readonly string[];
};

// Ordered and immutable: a released migration is never edited; changes come as a new file.
const steps: Record<string, Step> = {
  '0001_foundation': m0001,
  '0002_background': m0002,
  '0003_builtin_tasks_and_checks': m0003,
  '0004_unique_integration_messages': m0004,
  '0005_catalogue': m0005,
  '0006_session_advance_task': m0006,
  '0009_people': m0009,
  '0010_workflows': m0010,
  '0012_search': m0012,
  '0013_documents_reports': m0013,
  '0014_enrolments_by_student': m0014,
  '0015_job_request_ids': m0015,
  '0016_enrolment_list_indexes': m0016,
  '0017_users_search_text': m0017,
  '0018_idempotency_body_digest': m0018,
  '0019_task_schedule_timezone': m0019,
  '0020_users_staff_by_id': m0020,
  '0021_idempotency_committed': m0021,
  '0022_normalised_emails': m0022,
  '0023_user_roles': m0023,
  '0024_staff_sign_in': m0024,
  '0025_audit_events': m0025,
  '0026_passkeys': m0026,
  '0027_students_counted': m0027,
  '0029_staff_orders': m0029,
  '0030_staff_search': m0030,
  '0031_student_marks': m0031,
  '0032_student_terms': m0032,
  '0033_staff_search_staff_only': m0033,
  '0034_student_pairs': m0034,
  '0035_students_on_staff': m0035,
  '0036_certificates_by_student': m0036,
  '0037_walks_from_the_index': m0037,
  '0038_terms_by_student': m0038,
  '0039_certificates_by_holder_terms': m0039,
  '0040_staff_status_id': m0040,
  '0041_staff_terms': m0041,
  '0042_enrolments_by_holder_terms': m0042,
};

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(Object.entries(steps).map(([name, step]) => [name, { up: (db: Kysely<any>) => step.up(db, dialect) }]));
}

/** PostgreSQL: the tables that the migrations `applied` filled and want vacuumed after they commit, in order. */
export function tablesToVacuum(applied: readonly string[]): string[] {
  return applied.flatMap((name) => steps[name]?.vacuumAfter ?? []);
}
