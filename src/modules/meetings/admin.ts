import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { MeetingCreate } from './schemas.ts';

const COLUMNS = ['id', 'session_id', 'held_on', 'starts_at', 'ends_at', 'location', 'status', 'effective_status'];

/** `academy admin meetings create|cancel|list`: the class days of training sessions. */
export function adminMeetingCommands(admin: Command, run: Runner): void {
  const meetings = admin.command('meetings').description('Meetings (class days) of training sessions: add one, cancel one, list them');

  meetings
    .command('create')
    .description("Add a meeting to a session; starts_at and ends_at must be on held_on in the organization's time zone")
    .requiredOption(
      '--data <json>',
      '{"session_id":3,"held_on":"2027-01-11","starts_at":"2027-01-11T09:00:00+01:00","ends_at":"2027-01-11T17:00:00+01:00","location":"Room 1"}',
    )
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(MeetingCreate, parseData(options.data));
        const meeting = await services.meetings.create(ctx, input);
        out.result(meeting, `Meeting ${meeting.id} created.\n${table([meeting], COLUMNS)}`);
      }),
    );

  meetings
    .command('cancel <id>')
    .description('Cancel a scheduled meeting')
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const meeting = await services.meetings.cancel(ctx, idArgument(id));
        out.result(meeting, `Meeting ${meeting.id} cancelled.`);
      }),
    );

  meetings
    .command('list')
    .description('List meetings, of every session or of one')
    .option('--session <id>', 'only the meetings of this session')
    .action((options: { session?: string }) =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const sessionId = options.session === undefined ? undefined : idArgument(options.session);
        const { items } = await services.meetings.listAll(ctx, sessionId, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
