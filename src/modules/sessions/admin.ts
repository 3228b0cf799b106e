import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { createCourseRepository } from '../courses/repository.ts';
import { type Session, SessionCreate, SessionTransition, SessionUpdate } from './schemas.ts';

const COLUMNS = [
  'id',
  'course',
  'name',
  'workflow_state',
  'starts_on',
  'ends_on',
  'max_participants',
  'confirmed_count',
  'waitlisted_count',
  'capacity_status',
  'registration_status',
];

const show = (session: Session, what: string) => `Session ${session.id} ${what}.\n${table([session], COLUMNS)}`;

/** `academy admin sessions create|update|transition|list`: a course's training sessions (intakes). */
export function adminSessionCommands(admin: Command, run: Runner): void {
  const sessions = admin
    .command('sessions')
    .description('Training sessions (intakes): create, update, move through the workflow (the only way to cancel), list');

  sessions
    .command('create')
    .description('Create a session of a course (in draft unless workflow_state says otherwise)')
    .requiredOption(
      '--data <json>',
      '{"course":"project-management","name":"January 2027","max_participants":20,"waitlist_enabled":true,"registration_opens_at":"2026-12-01T09:00:00Z","registration_closes_at":"2027-01-08T17:00:00Z","starts_on":"2027-01-11","ends_on":"2027-01-15","instructor_name":"Ada Lovelace","workflow_state":"draft"}',
    )
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(SessionCreate, parseData(options.data));
        const session = await services.sessions.create(ctx, input);
        out.result(session, show(session, 'created'));
      }),
    );

  sessions
    .command('update <id>')
    .description('Change a session (any create field but course); a larger max_participants promotes from the waitlist')
    .requiredOption('--data <json>', '{"max_participants":25}')
    .action((id: string, options) =>
      run(async ({ services, out, ctx }) => {
        const sessionId = idArgument(id);
        const input = validateInput(SessionUpdate, parseData(options.data));
        const session = await services.sessions.update(ctx, sessionId, input);
        out.result(session, show(session, 'updated'));
      }),
    );

  sessions
    .command('transition <id>')
    .description(
      'Move a session through its workflow: draft → scheduled → open_for_registration → in_progress → completed, or to cancelled',
    )
    .requiredOption('--data <json>', '{"to_state":"cancelled"}')
    .action((id: string, options) =>
      run(async ({ services, out, ctx }) => {
        const sessionId = idArgument(id);
        const input = validateInput(SessionTransition, parseData(options.data));
        const session = await services.sessions.transition(ctx, sessionId, input);
        out.result(session, `Session ${session.id} is now ${session.workflow_state}.`);
      }),
    );

  sessions
    .command('list')
    .description('List sessions, of every course or of one')
    .option('--course <slug>', 'only the sessions of this course')
    .action((options: { course?: string }) =>
      run(async ({ platform, services, out, ctx }) => {
        let courseId: number | undefined;
        if (options.course !== undefined) {
          const course = await createCourseRepository(platform.database.db, platform.changes, platform.database.dialect).findBySlug(
            options.course,
          );
          if (!course) throw new Error(`No course has the slug "${options.course}".`);
          courseId = course.id;
        }
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await services.sessions.listAll(ctx, courseId === undefined ? {} : { courseId }, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
