import type { Command } from 'commander';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { StudentCreate } from './schemas.ts';

const COLUMNS = ['id', 'name', 'email', 'email_verified', 'courses', 'created_at'];

/** `academy admin students create|list`: the people who apply to courses (read at GET /api/v1/students). */
export function adminStudentCommands(admin: Command, run: Runner): void {
  const students = admin.command('students').description('Students: users who apply to courses');

  students
    .command('create')
    .description('Create a user who becomes a student with a first course application (academy admin applications create)')
    .requiredOption('--data <json>', '{"name":"Ada Lovelace","email":"ada@example.org","email_verified":false}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(StudentCreate, parseData(options.data));
        const student = await services.students.create(ctx, input);
        out.result(
          student,
          `Student ${student.id} (${student.email}) created; the API lists it once it has a course application.\n${JSON.stringify(student, null, 2)}`,
        );
      }),
    );

  students
    .command('list')
    .description('List the students (users with a course application who are not staff)')
    .option('--search <text>', 'only names or emails containing the text (case-insensitive)')
    .action((options: { search?: string }) =>
      run(async ({ services, out, ctx }) => {
        const service = services.students;
        const list = { page: { page: 1, perPage: 1000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items, total } = await service.list(ctx, { search: options.search }, list);
        const more = total > items.length ? `\n(${total - items.length} more; narrow the list with --search)` : '';
        out.result(items, table(items as unknown as Record<string, unknown>[], COLUMNS) + more);
      }),
    );
}
