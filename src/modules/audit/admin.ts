import type { Command } from 'commander';
import { positiveInt } from '../../cli/ids.ts';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { AUDIT_ACTOR_TYPES, type AuditActorType } from '../../platform/audit.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { AuditFilter } from './repository.ts';

const COLUMNS = ['id', 'occurred_at', 'actor_type', 'actor_id', 'actor_name', 'via', 'action', 'subject', 'changed'];

interface ListOptions {
  actorType?: string;
  actorId?: string;
  subject?: string;
  since?: string;
  limit?: number;
}

/** The filter the options name; a bad value is a validation error naming its option. */
function filterOf(options: ListOptions): AuditFilter {
  const filter: AuditFilter = {};
  if (options.actorType !== undefined) {
    if (!(AUDIT_ACTOR_TYPES as readonly string[]).includes(options.actorType)) {
      throw ValidationError.field('--actor-type', `--actor-type must be one of ${AUDIT_ACTOR_TYPES.join(', ')}.`);
    }
    filter.actorType = options.actorType as AuditActorType;
  }
  if (options.actorId !== undefined) {
    if (!/^[1-9][0-9]{0,9}$/.test(options.actorId)) throw ValidationError.field('--actor-id', '--actor-id must be a positive integer.');
    filter.actorId = Number(options.actorId);
  }
  if (options.subject !== undefined) {
    const match = /^([a-z_]+)(?::([1-9][0-9]{0,9}))?$/.exec(options.subject);
    if (!match) throw ValidationError.field('--subject', '--subject must be TYPE or TYPE:ID, e.g. course:12.');
    filter.subjectType = match[1];
    if (match[2] !== undefined) filter.subjectId = Number(match[2]);
  }
  if (options.since !== undefined) {
    const at = /^\d{4}-\d{2}-\d{2}T/.test(options.since) ? Date.parse(options.since) : Number.NaN;
    if (Number.isNaN(at)) throw ValidationError.field('--since', '--since must be an RFC 3339 date-time, e.g. 2026-03-01T00:00:00Z.');
    filter.since = new Date(at).toISOString();
  }
  return filter;
}

/** `academy admin audit list`: the audit trail, newest first. */
export function adminAuditCommands(admin: Command, run: Runner): void {
  const audit = admin.command('audit').description('The audit trail: every change, who made it and through what');

  audit
    .command('list')
    .description('List audit events, newest first')
    .option('--actor-type <type>', `only changes by this kind of actor (${AUDIT_ACTOR_TYPES.join(', ')})`)
    .option('--actor-id <id>', 'only changes by this token or user id')
    .option('--subject <type:id>', 'only changes of this record, e.g. course:12 (or of every record of a type: course)')
    .option('--since <time>', 'only changes made at or after this RFC 3339 time')
    .option('--limit <n>', 'at most this many events (default 100)', positiveInt('--limit', 10_000))
    .action((options: ListOptions) =>
      run(async ({ services, out, ctx }) => {
        const filter = filterOf(options);
        const list = { page: { page: 1, perPage: options.limit ?? 100, offset: 0 }, sort: 'id', direction: 'desc' } as const;
        const { items } = await services.audit.list(ctx, filter, list);
        const rows = items.map((event) => ({
          ...event,
          subject: event.subject_id === null ? event.subject_type : `${event.subject_type}:${event.subject_id}`,
          changed: Object.keys(event.changes ?? {}).join(','),
        }));
        out.result(items, table(rows, COLUMNS));
      }),
    );
}
