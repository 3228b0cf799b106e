import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { type Enrolment, EnrolmentCancel, EnrolmentCompletion, EnrolmentCreate } from './schemas.ts';

const COLUMNS = ['id', 'student_id', 'session_id', 'course_id', 'status', 'waitlist_position', 'completion_outcome', 'created_at'];

function show(enrolment: Enrolment, what: string): string {
  const place = enrolment.status === 'waitlisted' ? ` (waitlist position ${enrolment.waitlist_position})` : '';
  return `Enrolment ${enrolment.id} ${what}: ${enrolment.status}${place}.\n${table([enrolment], COLUMNS)}`;
}

/** `academy admin enrolments create|cancel|complete|list`: enrolments into training sessions, with the waitlist. */
export function adminEnrolmentCommands(admin: Command, run: Runner): void {
  const enrolments = admin
    .command('enrolments')
    .description('Enrolments: enrol a student into a session (confirmed or waitlisted), cancel, record completion, list');

  enrolments
    .command('create')
    .description('Enrol a student into a session: confirmed while seats remain, else waitlisted (or refused without a waitlist)')
    .requiredOption('--data <json>', '{"student_id":12,"session_id":3}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(EnrolmentCreate, parseData(options.data));
        const enrolment = await services.enrolments.enrol(ctx, input);
        out.result(enrolment, show(enrolment, 'created'));
      }),
    );

  enrolments
    .command('cancel <id>')
    .description('Cancel an enrolment; a freed seat goes to the oldest waitlisted enrolment')
    .option('--data <json>', '{"reason":"Changed jobs"}')
    .action((id: string, options: { data?: string }) =>
      run(async ({ services, out, ctx }) => {
        const enrolmentId = idArgument(id);
        const { reason } = validateInput(EnrolmentCancel, parseData(options.data));
        const enrolment = await services.enrolments.cancel(ctx, enrolmentId, reason);
        out.result(enrolment, show(enrolment, 'cancelled'));
      }),
    );

  enrolments
    .command('complete <id>')
    .description('Record the completion of a confirmed enrolment')
    .requiredOption('--data <json>', '{"completion_outcome":"passed","completion_notes":"…"}')
    .action((id: string, options) =>
      run(async ({ services, out, ctx }) => {
        const enrolmentId = idArgument(id);
        const input = validateInput(EnrolmentCompletion, parseData(options.data));
        const enrolment = await services.enrolments.complete(ctx, enrolmentId, input);
        out.result(enrolment, `Enrolment ${enrolment.id} completed: ${enrolment.completion_outcome}.`);
      }),
    );

  enrolments
    .command('list')
    .description('List enrolments, of every session or of one')
    .option('--session <id>', 'only the enrolments of this session')
    .action((options: { session?: string }) =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const filter = options.session === undefined ? {} : { sessionId: idArgument(options.session) };
        const { items } = await services.enrolments.list(ctx, filter, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
