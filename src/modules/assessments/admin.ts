import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { AssessmentCreate } from './schemas.ts';

const COLUMNS = ['id', 'session_id', 'title', 'kind', 'due_at', 'max_score'];

/** `academy admin assessments create|list`: the assessments of training sessions. */
export function adminAssessmentCommands(admin: Command, run: Runner): void {
  const assessments = admin.command('assessments').description('Assessments of training sessions: add one, list them');

  assessments
    .command('create')
    .description('Add an assessment to a session')
    .requiredOption('--data <json>', '{"session_id":3,"title":"Final exam","kind":"exam","due_at":"2027-01-15T15:00:00Z","max_score":100}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(AssessmentCreate, parseData(options.data));
        const assessment = await services.assessments.create(ctx, input);
        out.result(assessment, `Assessment ${assessment.id} created.\n${table([assessment], COLUMNS)}`);
      }),
    );

  assessments
    .command('list')
    .description('List assessments, of every session or of one')
    .option('--session <id>', 'only the assessments of this session')
    .action((options: { session?: string }) =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const sessionId = options.session === undefined ? undefined : idArgument(options.session);
        const { items } = await services.assessments.listAll(ctx, sessionId, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
