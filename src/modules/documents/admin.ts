import type { Command } from 'commander';
import { idArgument, positiveInt } from '../../cli/ids.ts';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { STRAY_FILE_MIN_AGE_MS, sweepStrayFiles } from '../../platform/stray-files.ts';
import type { AcademyModule } from '../manifest.ts';
import { DOCUMENT_STATUSES, type DocumentStatus } from './schemas.ts';
import { DOCUMENT_TYPES, type DocumentType } from './types.ts';

const COLUMNS = ['id', 'type', 'status', 'filename', 'media_type', 'size', 'student_id', 'supersedes_id', 'created_at'];

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `academy admin documents …`, and `academy admin storage usage|sweep`. */
export function adminDocumentCommands(admin: Command, run: Runner, modules: readonly AcademyModule[]): void {
  const documents = admin.command('documents').description('Documents: list, show, archive, delete (uploads go through the API)');

  documents
    .command('list')
    .description('List documents, deleted ones included')
    .option('--type <type>', `only this type (${DOCUMENT_TYPES.join(', ')})`)
    .option('--status <status>', `only this status (${DOCUMENT_STATUSES.join(', ')})`)
    .action((options: { type?: string; status?: string }) =>
      run(async ({ services, out, ctx }) => {
        if (options.type !== undefined && !(DOCUMENT_TYPES as readonly string[]).includes(options.type)) {
          throw new Error(`--type must be one of ${DOCUMENT_TYPES.join(', ')}`);
        }
        if (options.status !== undefined && !(DOCUMENT_STATUSES as readonly string[]).includes(options.status)) {
          throw new Error(`--status must be one of ${DOCUMENT_STATUSES.join(', ')}`);
        }
        const filter = { type: options.type as DocumentType | undefined, status: options.status as DocumentStatus | undefined };
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await services.documents.list(ctx, filter, list);
        out.result(items, table(items, COLUMNS));
      }),
    );

  documents
    .command('show <id>')
    .description('Show one document')
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const document = await services.documents.get(ctx, idArgument(id));
        out.result(document, table([document], COLUMNS));
      }),
    );

  for (const move of ['archive', 'delete'] as const) {
    documents
      .command(`${move} <id>`)
      .description(
        move === 'archive' ? 'Archive a stored or available document' : 'Delete a document (soft: it stays listed, its file is kept)',
      )
      .action((id: string) =>
        run(async ({ services, out, ctx }) => {
          const document = await services.documents[move](ctx, idArgument(id));
          out.result(document, `Document ${document.id} (${document.filename}) is now ${document.status}.`);
        }),
      );
  }

  const storage = admin.command('storage').description('File storage');
  storage
    .command('usage')
    .description('Files and bytes kept: per document type and status, and per storage area')
    .action(() =>
      run(async ({ services, out }) => {
        const usage = await services.documents.storageUsage();
        const areas = Object.entries(usage.storage).map(([area, total]) => ({ area, files: total.files, size: megabytes(total.bytes) }));
        const rows = usage.documents.map((row) => ({ ...row, size: megabytes(row.bytes) }));
        out.result(usage, `${table(rows, ['type', 'status', 'files', 'size'])}\n\nIn storage:\n${table(areas, ['area', 'files', 'size'])}`);
      }),
    );

  storage
    .command('sweep')
    .description(
      "Remove the stored files that no document and no live report names (left by a process stopped between storing a file and its row, or before an expired report's file was removed); --dry-run only counts them",
    )
    .option('--dry-run', 'count the stray files and their bytes, remove nothing')
    .option(
      '--older-than-hours <h>',
      `only files older than this (default ${STRAY_FILE_MIN_AGE_MS / 3_600_000}: a younger one may be an upload whose row is not committed yet)`,
      positiveInt('--older-than-hours', 24 * 365),
    )
    .action((options: { dryRun?: boolean; olderThanHours?: number }) =>
      run(async ({ platform, out }) => {
        const owners = modules.flatMap((module) => (module.files ? [module.files] : []));
        const swept = await sweepStrayFiles({ storage: platform.storage, db: platform.database.db }, owners, {
          olderThanMs: options.olderThanHours === undefined ? STRAY_FILE_MIN_AGE_MS : options.olderThanHours * 3_600_000,
          now: platform.clock.epochMs(),
          dryRun: options.dryRun === true,
        });
        const rows = swept.map((area) => ({ area: area.area, checked: area.checked, stray: area.files, size: megabytes(area.bytes) }));
        const verb = options.dryRun ? 'would be removed (dry run)' : 'removed';
        const files = swept.reduce((sum, area) => sum + area.files, 0);
        out.result(
          { dryRun: options.dryRun === true, areas: swept },
          `${table(rows, ['area', 'checked', 'stray', 'size'])}\n\n${files} stray file${files === 1 ? '' : 's'} ${verb}.`,
        );
      }),
    );
}
