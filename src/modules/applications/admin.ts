import path from 'node:path';
import type { Command } from 'commander';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { DELIMITERS, type Delimiter, readImportFile } from './csv.ts';
import { ApplicationCreate } from './schemas.ts';

const COLUMNS = ['id', 'student_id', 'course', 'source', 'created_at'];

const LIST_LIMIT = 1000;

/** `academy admin applications create|list|import`: course applications, which make users students. */
export function adminApplicationCommands(admin: Command, run: Runner): void {
  const applications = admin.command('applications').description('Course applications: a user with one is a student');

  applications
    .command('create')
    .description('Add a student’s application to a course; repeating it changes nothing')
    .requiredOption('--data <json>', '{"student_id":12,"course":"python-basics"}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(ApplicationCreate, parseData(options.data));
        const { application, created } = await services.applications.create(ctx, input);
        const verb = created ? 'created' : 'already existed; nothing changed';
        out.result(application, `Application ${application.id} (student ${application.student_id}, course ${application.course}) ${verb}.`);
      }),
    );

  applications
    .command('list')
    .description(`List the latest course applications (up to ${LIST_LIMIT})`)
    .action(() =>
      run(async ({ services, out, ctx }) => {
        const { items, total } = await services.applications.list(ctx, LIST_LIMIT);
        const more = total > items.length ? `\n(${total - items.length} older ones not shown)` : '';
        out.result(items, table(items as unknown as Record<string, unknown>[], COLUMNS) + more);
      }),
    );

  applications
    .command('import <file>')
    .description(
      'Import students and applications from a CSV file (values separated by commas, semicolons, tabs or bars, found from the header line; ' +
        'a UTF-8 BOM is fine) or an XLSX spreadsheet (its first sheet), with a header line: name,email,course and optionally email_verified. ' +
        'Every row is checked first; any problem refuses the whole file, listing each by line. Existing users are matched by ' +
        'email (and left unchanged), existing applications are skipped, so a file can be imported again safely.',
    )
    .option('--dry-run', 'check the file and report what the import would do, without writing anything')
    .option('--delimiter <char>', `the CSV's separator when it should not be guessed: ${DELIMITER_NAMES.join(', ')}`)
    .action((file: string, options: { dryRun?: boolean; delimiter?: string }) =>
      run(async ({ services, out, ctx }) => {
        const dryRun = Boolean(options.dryRun);
        // Progress goes to stderr, so stdout keeps only the result; --json asks for quiet.
        const progress = (text: string) => {
          out.progress(text);
        };
        const delimiter = delimiterOption(options.delimiter);
        const parsed = await readImportFile(
          file,
          ({ rows, percent }) => progress(percent === null ? `Checked ${rows} rows` : `Checked ${rows} rows (${percent}% of the file)`),
          delimiter ? { delimiter } : {},
        );
        const summary = await services.applications.import(ctx, parsed, {
          dryRun,
          source: path.basename(file),
          onProgress: ({ written, total }) => {
            if (total >= 1000) progress(`Imported ${written} of ${total} rows (${Math.floor((written / total) * 100)}%)`);
          },
        });
        const would = dryRun ? 'Dry run, nothing written. The import would create' : 'Imported: created';
        out.result(
          summary,
          `${would} ${summary.students_created} student(s) and ${summary.applications_created} application(s) from ${summary.rows} row(s); ` +
            `${summary.students_existing} existing user(s) matched by email, ${summary.applications_existing} application(s) already there` +
            (summary.duplicate_rows ? `, ${summary.duplicate_rows} duplicate row(s) skipped.` : '.'),
        );
      }),
    );
}

const DELIMITER_NAMES = ['comma', 'semicolon', 'tab', 'bar'] as const;

/** `--delimiter`: a name or the character itself. */
function delimiterOption(given: string | undefined): Delimiter | undefined {
  if (given === undefined) return undefined;
  const named: Record<string, Delimiter> = { comma: ',', semicolon: ';', tab: '\t', bar: '|', '\\t': '\t' };
  const delimiter = named[given.toLowerCase()] ?? given;
  if (!(DELIMITERS as readonly string[]).includes(delimiter)) {
    throw new Error(`--delimiter must be one of ${DELIMITER_NAMES.join(', ')} (or , ; | and a tab), not "${given}"`);
  }
  return delimiter as Delimiter;
}
