import type { Command } from 'commander';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { CourseCreate, CourseTransition, CourseUpdate } from './schemas.ts';

const COLUMNS = ['id', 'slug', 'code', 'title', 'price', 'currency', 'language', 'status'];

/** `academy admin courses create|transition|list`: the catalogue's courses and their publication workflow. */
export function adminCourseCommands(admin: Command, run: Runner): void {
  const courses = admin.command('courses').description('Courses: create one, move it through the publication workflow, list them');

  courses
    .command('create')
    .description('Create a course (in draft)')
    .requiredOption(
      '--data <json>',
      '{"slug":"project-management","title":"Project Management","code":"PM-101","price":"450.00","currency":"EUR","language":"en","description":"…"}',
    )
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(CourseCreate, parseData(options.data));
        const course = await services.courses.create(ctx, input);
        out.result(course, `Course ${course.slug} created (id ${course.id}, ${course.status}).\n${table([course], COLUMNS)}`);
      }),
    );

  courses
    .command('update <slug>')
    .description("Change a course's own fields, all given (its slug and code stay): title, price, currency, language, description")
    .requiredOption('--data <json>', '{"title":"Project management","price":"450.00","currency":"EUR","language":"en","description":null}')
    .action((slug: string, options) =>
      run(async ({ services, out, ctx }) => {
        const course = await services.courses.update(ctx, slug, validateInput(CourseUpdate, parseData(options.data)));
        out.result(course, `Course ${course.slug} saved.\n${table([course], COLUMNS)}`);
      }),
    );

  courses
    .command('transition <slug>')
    .description('Move a course through the publication workflow: draft → review → approved (or back to draft) → published → archived')
    .requiredOption('--data <json>', '{"to_state":"published"}')
    .action((slug: string, options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(CourseTransition, parseData(options.data));
        const course = await services.courses.transition(ctx, slug, input);
        out.result(course, `Course ${course.slug} is now ${course.status}.`);
      }),
    );

  courses
    .command('list')
    .description('List every course')
    .action(() =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await services.courses.list(ctx, {}, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
