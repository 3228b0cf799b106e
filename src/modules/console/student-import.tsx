import { setTimeout as delay } from 'node:timers/promises';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isBrokenBody } from '../../http/multipart.ts';
import { AppError, MalformedRequestError, NotFoundError } from '../../platform/errors.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { readImportFile } from '../applications/csv.ts';
import type { ImportSummary, RowError } from '../applications/schemas.ts';
import { type ApplicationService, ImportRejectedError } from '../applications/service.ts';
import { cookiesOf, SESSION_COOKIE } from '../staff-auth/web.ts';
import { PAGE, seeOther, sendPage, viewerOf } from './guard.ts';
import { Csrf, ErrorSummary, fieldId, Layout, PostButton, ScrollingTable, Time } from './layout.tsx';
import { IMPORT_KEPT_MS, IMPORT_MAX_BYTES, type ImportRecord, type ImportStore, UploadTooLargeError } from './student-import-store.ts';
import { importPath } from './student-paths.ts';
import { may, type Viewer } from './viewer.ts';

export interface StudentImportDeps {
  applications: ApplicationService;
  store: ImportStore;
}

/** How long confirming waits for a small import to finish before showing its progress instead. */
const CONFIRM_WAIT_MS = 2000;

/** At most this many of a file's problems are listed on a page. */
const SHOWN_ERRORS = 200;

/** A running import is taken as interrupted once its record has not moved for this long. */
const STALLED_MS = 10 * 60 * 1000;

const UPLOAD_PATH = '/console/students/import';

/** The fields a multipart upload sent before its file, and the file, not read yet. */
const uploads = new WeakMap<FastifyRequest, { parts: AsyncIterableIterator<unknown>; file: MultipartFile | null }>();

/**
 * Reads an upload's fields up to its file (the form puts `_csrf` first), so that the guard checks the
 * session and the CSRF token before a byte of the file is read or kept; the file waits for the handler.
 */
async function fieldsBeforeTheFile(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const parts = request.parts();
  const fields: Record<string, string> = {};
  let file: MultipartFile | null = null;
  for (;;) {
    const next = await parts.next();
    if (next.done) break;
    const part = next.value;
    if (part.type === 'file') {
      file = part;
      break;
    }
    if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  request.body = fields;
  uploads.set(request, { parts, file });
}

/** The file's name as the import's events record it: no directories, no control characters, one line. */
function sourceName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/\p{Cc}|\p{Cf}/gu, '').trim();
  return clean.slice(0, 200) || 'upload';
}

const count = (n: number) => n.toLocaleString('en-GB');

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The applications import (`academy admin applications import`) on the console: a CSV or XLSX file
 * uploaded (multipart, at most 10 MB), kept under the data directory for the session that sent it;
 * its preview is a dry run of the import (what it would create, or every problem by line); confirming
 * imports it for real, in the background, with a page that shows its progress. `students.manage`.
 */
export function studentImportPages(app: FastifyInstance, deps: StudentImportDeps): void {
  const { store, applications } = deps;
  const jobs = new Map<string, Promise<void>>();

  app.addHook('onClose', async () => {
    await Promise.allSettled(jobs.values());
  });

  const sessionCookie = (request: FastifyRequest) => cookiesOf(request)[SESSION_COOKIE] ?? '';

  async function recordOf(request: FastifyRequest, id: string, viewer: Viewer): Promise<ImportRecord> {
    const now = viewer.ctx.clock.now();
    void store.sweep(now).catch((error: unknown) => viewer.ctx.logger.warn({ err: error }, 'sweeping console imports failed'));
    const record = await store.find(id, sessionCookie(request), now);
    if (!record) {
      throw new NotFoundError(
        'This import is not here: it was discarded or imported and read, an upload is kept for an hour, and only the session that uploaded it sees it. Upload the file again.',
      );
    }
    return record;
  }

  app.get<{ Querystring: { notice?: string } }>(
    UPLOAD_PATH,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const notice = request.query.notice === 'discarded' ? 'The uploaded file was discarded; nothing was imported.' : undefined;
      return sendPage(reply, 200, <UploadForm viewer={viewer} notice={notice} />);
    },
  );

  void app.register(async (scope) => {
    // Streamed: the file goes to disk as it arrives, never whole in memory; one file and a few fields.
    await scope.register(multipart, {
      limits: { files: 1, fields: 4, fieldSize: 1024, parts: 6, fileSize: IMPORT_MAX_BYTES, headerPairs: 100 },
    });
    scope.post(
      UPLOAD_PATH,
      { config: { access: PAGE }, schema: { hide: true }, preValidation: fieldsBeforeTheFile },
      async (request, reply) => {
        const viewer = viewerOf(request);
        viewer.back = UPLOAD_PATH;
        // Refused before the file is read: nothing of it is kept.
        requirePermission(viewer.ctx, 'students.manage');
        const upload = uploads.get(request);
        const refuse = (status: number, message: string) =>
          sendPage(reply, status, <UploadForm viewer={viewer} errors={{ file: message }} />);
        if (!upload) return refuse(422, 'Choose a CSV or XLSX file to import.');
        const { file } = upload;
        if (!file || file.filename === '') {
          if (file) file.file.resume();
          return refuse(422, 'Choose a CSV or XLSX file to import.');
        }
        let record: ImportRecord;
        try {
          record = await store.create(
            { stream: file.file, filename: sourceName(file.filename) },
            { sessionCookie: sessionCookie(request), userId: viewer.user.id, now: viewer.ctx.clock.now() },
          );
        } catch (error) {
          if (error instanceof UploadTooLargeError || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            return refuse(413, `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB; split it into smaller files.`);
          }
          // Cut short or broken by the client: nothing was kept.
          if (isBrokenBody(error, request, { fields: {}, file: null, failures: new WeakSet() })) {
            throw new MalformedRequestError('The upload was cut short or could not be read; nothing was kept. Upload the file again.');
          }
          throw error;
        }
        // The rest of the body (nothing, from the form): read to its end.
        for (let next = await upload.parts.next(); !next.done; next = await upload.parts.next()) {
          const part = next.value as { type: string; file?: NodeJS.ReadableStream };
          if (part.type === 'file') part.file?.resume();
        }
        if (record.size === 0) {
          await store.remove(record.id);
          return refuse(422, 'The file is empty; it needs a header line: name,email,course.');
        }
        return seeOther(reply, importPath(record.id));
      },
    );
  });

  app.get<{ Params: { id: string } }>(
    `${UPLOAD_PATH}/:id`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      viewer.back = UPLOAD_PATH;
      const record = await recordOf(request, request.params.id, viewer);
      if (record.state !== 'uploaded') return sendPage(reply, 200, <ImportOutcome viewer={viewer} record={record} />);
      // The preview: the import's own dry run, against the database as it is now.
      const parsed = await readImportFile(store.filePath(record.id));
      let preview: Preview;
      try {
        preview = { summary: await applications.import(viewer.ctx, parsed, { dryRun: true, source: record.filename }) };
      } catch (error) {
        if (!(error instanceof ImportRejectedError)) throw error;
        preview = { errors: error.errors };
      }
      return sendPage(reply, 200, <ImportPreview viewer={viewer} record={record} preview={preview} />);
    },
  );

  app.post<{ Params: { id: string } }>(
    `${UPLOAD_PATH}/:id/confirm`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const page = importPath(request.params.id);
      viewer.back = page;
      const record = await recordOf(request, request.params.id, viewer);
      // Confirmed twice (a second click): the import that runs already is the answer.
      if (record.state !== 'uploaded' || jobs.has(record.id)) return seeOther(reply, page);
      requirePermission(viewer.ctx, 'students.manage');
      store.running.add(record.id);
      // runImport never rejects: its failures are the import's outcome, on its page.
      const job = runImport(record, viewer).finally(() => {
        jobs.delete(record.id);
        store.running.delete(record.id);
      });
      jobs.set(record.id, job);
      // A small file is imported by the time the page is asked for; a large one shows its progress.
      await Promise.race([job, delay(CONFIRM_WAIT_MS)]);
      return seeOther(reply, page);
    },
  );

  app.post<{ Params: { id: string } }>(
    `${UPLOAD_PATH}/:id/discard`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      viewer.back = importPath(request.params.id);
      const record = await recordOf(request, request.params.id, viewer);
      if (record.state === 'running') return seeOther(reply, importPath(record.id));
      await store.remove(record.id);
      return seeOther(reply, `${UPLOAD_PATH}?notice=discarded`);
    },
  );

  /** Imports the file for real, noting its progress in its record; the file is removed at the end. */
  async function runImport(record: ImportRecord, viewer: Viewer): Promise<void> {
    const { ctx } = viewer;
    const save = () => {
      store.save(record).catch((error: unknown) => ctx.logger.warn({ err: error }, 'saving a console import’s progress failed'));
    };
    let outcome: Pick<ImportRecord, 'state'> & Partial<ImportRecord>;
    try {
      Object.assign(record, { state: 'running', phase: 'reading', read: 0, written: 0, total: null });
      await store.save(record);
      const parsed = await readImportFile(store.filePath(record.id), ({ rows }) => {
        record.read = rows;
        save();
      });
      Object.assign(record, { phase: 'writing', read: parsed.total, total: parsed.rows.length });
      save();
      const summary = await applications.import(ctx, parsed, {
        dryRun: false,
        source: record.filename,
        onProgress: ({ written, total }) => {
          Object.assign(record, { written, total });
          save();
        },
      });
      outcome = { state: 'done', summary };
    } catch (error) {
      let failure: string | null = null;
      let errors: RowError[] | null = null;
      if (error instanceof ImportRejectedError) errors = error.errors;
      else if (error instanceof AppError && error.status < 500) failure = error.message;
      else {
        ctx.logger.error({ err: error, importId: record.id }, 'a console import failed');
        failure = 'The import stopped because of a problem on the server.';
      }
      outcome = { state: 'failed', errors, failure };
    }
    await store
      .finish(record, { ...outcome, finished_at: ctx.clock.now().toISOString() })
      .catch((saving: unknown) => ctx.logger.error({ err: saving }, 'saving a console import’s outcome failed'));
  }
}

type Preview = { summary: ImportSummary } | { errors: RowError[] };

function UploadForm(props: { viewer: Viewer; errors?: Record<string, string>; notice?: string | undefined }): JSX.Element {
  const { viewer } = props;
  const errors = props.errors ?? {};
  const title = errors.file ? 'Import applications (not uploaded)' : 'Import applications';
  if (!may(viewer, 'students.manage')) {
    return (
      <Layout viewer={viewer} title="Import applications" section="students">
        <p class="notice">Importing applications needs the students.manage permission, which you do not hold.</p>
        <p>
          <a href="/console/students">Back to the students</a>
        </p>
      </Layout>
    );
  }
  const id = fieldId('file');
  const describedBy = [`${id}-hint`, errors.file ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <Layout viewer={viewer} title={title} section="students">
      <ErrorSummary errors={errors} order={['file']} />
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/console/students">← The students</a>
      </p>
      <p>
        Students and their course applications, from a file with a header line naming its columns: <code>name</code>, <code>email</code>,{' '}
        <code>course</code> (the course’s slug) and optionally <code>email_verified</code> (true or false), in any order.
      </p>
      <ul>
        <li>
          A CSV file, its values separated by commas, semicolons, tabs or bars (found from the header line), UTF-8 with or without a BOM.
        </li>
        <li>Or an XLSX spreadsheet: its first sheet is read.</li>
        <li>A student is matched by email: an existing one is left as it is; an application that exists already is skipped.</li>
      </ul>
      <p>
        The next page shows what the import would do, or every problem of the file by its line: nothing is written until you confirm it.
      </p>
      <form method="post" action={UPLOAD_PATH} enctype="multipart/form-data" novalidate>
        <Csrf token={viewer.csrf} />
        <div class="field">
          <label for={id}>File to import</label>
          <p class="hint" id={`${id}-hint`}>
            {`CSV or XLSX, at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`}
          </p>
          <input
            id={id}
            type="file"
            name="file"
            accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            required
            aria-describedby={describedBy}
            aria-invalid={errors.file ? 'true' : undefined}
          />
          {errors.file ? (
            <p class="error" id={`${id}-error`}>
              <span class="visually-hidden">Error: </span>
              <span safe>{errors.file}</span>
            </p>
          ) : (
            ''
          )}
        </div>
        <button type="submit" class="primary">
          Upload and preview
        </button>
      </form>
    </Layout>
  );
}

/** The file's line: its name, size and when it was uploaded. */
function FileFacts(props: { viewer: Viewer; record: ImportRecord }): JSX.Element {
  const { record } = props;
  return (
    <dl class="record">
      <dt>File</dt>
      <dd safe>{record.filename}</dd>
      <dt>Size</dt>
      <dd safe>{sizeText(record.size)}</dd>
      <dt>Uploaded</dt>
      <dd>
        <Time iso={record.uploaded_at} timeZone={props.viewer.timeZone} />
      </dd>
    </dl>
  );
}

/** What an import creates (or, in a dry run, would create). */
function SummaryFacts(props: { summary: ImportSummary }): JSX.Element {
  const { summary } = props;
  const rows: [string, number][] = [
    ['Rows of the file', summary.rows],
    ['New students', summary.students_created],
    ['Existing students (matched by email, left unchanged)', summary.students_existing],
    ['New applications', summary.applications_created],
    ['Applications that exist already (skipped)', summary.applications_existing],
    ['Duplicate rows (the same email and course as an earlier row; skipped)', summary.duplicate_rows],
  ];
  return (
    <ScrollingTable label={summary.dry_run ? 'What the import would do' : 'What the import did'}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr>
            <th scope="row" safe>
              {label}
            </th>
            <td class="number" safe>
              {count(value)}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollingTable>
  );
}

/** A file's problems by line. */
function RowErrors(props: { errors: readonly RowError[]; total: number }): JSX.Element {
  const shown = props.errors.slice(0, SHOWN_ERRORS);
  const lines = new Set(props.errors.map((error) => error.line)).size;
  const more = props.total - shown.length;
  return (
    <>
      <p class="alert" role="alert" safe>
        {`The file has ${count(props.total)} problem${props.total === 1 ? '' : 's'} on ${count(lines)} line${lines === 1 ? '' : 's'}; nothing is imported from a file with problems. Fix them and upload the file again.`}
      </p>
      <ScrollingTable label="Problems of the file, by line">
        <thead>
          <tr>
            <th scope="col" class="number">
              Line
            </th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((error) => (
            <tr>
              <td class="number" safe>
                {String(error.line)}
              </td>
              <td safe>{error.field ?? '—'}</td>
              <td safe>{error.message}</td>
            </tr>
          ))}
        </tbody>
      </ScrollingTable>
      {more > 0 && <p safe>{`… and ${count(more)} more, not listed.`}</p>}
    </>
  );
}

function ImportPreview(props: { viewer: Viewer; record: ImportRecord; preview: Preview }): JSX.Element {
  const { viewer, record, preview } = props;
  const keptUntil = new Date(Date.parse(record.uploaded_at) + IMPORT_KEPT_MS).toISOString();
  return (
    <Layout viewer={viewer} title="Import preview" section="students">
      <p>
        <a href={UPLOAD_PATH}>← Upload another file</a>
      </p>
      <FileFacts viewer={viewer} record={record} />
      {'errors' in preview ? (
        <>
          <RowErrors errors={preview.errors} total={preview.errors.length} />
          <div class="actions">
            <a class="button" href={UPLOAD_PATH}>
              Upload a corrected file
            </a>
            <PostButton action={`${importPath(record.id)}/discard`} csrf={viewer.csrf} label="Discard this file" />
          </div>
        </>
      ) : (
        <>
          <p class="notice" role="status">
            A dry run: nothing has been written yet. This is what the import would do.
          </p>
          <SummaryFacts summary={preview.summary} />
          <p>
            The file is kept until <Time iso={keptUntil} timeZone={viewer.timeZone} />; after that, upload it again.
          </p>
          <div class="actions">
            <PostButton
              action={`${importPath(record.id)}/confirm`}
              csrf={viewer.csrf}
              label={`Import ${count(preview.summary.rows)} row${preview.summary.rows === 1 ? '' : 's'}`}
              kind="primary"
            />
            <PostButton action={`${importPath(record.id)}/discard`} csrf={viewer.csrf} label="Discard this file" />
          </div>
        </>
      )}
    </Layout>
  );
}

/** A confirmed import: its progress while it runs (a link refreshes it), then what it did. */
function ImportOutcome(props: { viewer: Viewer; record: ImportRecord }): JSX.Element {
  const { viewer, record } = props;
  const page = importPath(record.id);
  if (record.state === 'running') {
    const stalled = Date.now() - Date.parse(record.updated_at) > STALLED_MS;
    const progress =
      record.phase === 'reading'
        ? `Checking the file: ${count(record.read)} rows read.`
        : `Importing: ${count(record.written)} of ${count(record.total ?? 0)} rows written.`;
    return (
      <Layout viewer={viewer} title="Importing" section="students">
        <FileFacts viewer={viewer} record={record} />
        <p role="status" safe>
          {progress}
        </p>
        {record.phase === 'writing' && record.total ? (
          <progress max={String(record.total)} value={String(record.written)} aria-label="Rows written" safe>
            {`${count(record.written)} of ${count(record.total)}`}
          </progress>
        ) : (
          ''
        )}
        {stalled ? (
          <p class="alert">
            This import has not moved for ten minutes: the server may have been restarted. What was written stays; importing the same file
            again adds only what is missing.
          </p>
        ) : (
          ''
        )}
        <p>
          <a href={page}>Refresh</a> to see how far it is. It goes on if you leave this page.
        </p>
      </Layout>
    );
  }
  if (record.state === 'failed') {
    return (
      <Layout viewer={viewer} title="Import refused" section="students">
        <FileFacts viewer={viewer} record={record} />
        {record.errors ? <RowErrors errors={record.errors} total={record.error_count} /> : ''}
        {record.failure ? (
          <p class="alert" role="alert" safe>
            {`${record.failure} The batches written before it stay; importing the same file again adds only what is missing.`}
          </p>
        ) : (
          ''
        )}
        <p>
          <a href={UPLOAD_PATH}>Upload a file</a>
        </p>
      </Layout>
    );
  }
  const summary = record.summary as ImportSummary;
  return (
    <Layout viewer={viewer} title="Import finished" section="students">
      <p class="notice" role="status" safe>
        {`Imported: ${count(summary.students_created)} new student${summary.students_created === 1 ? '' : 's'} and ${count(summary.applications_created)} new application${summary.applications_created === 1 ? '' : 's'}.`}
      </p>
      <FileFacts viewer={viewer} record={record} />
      <SummaryFacts summary={summary} />
      <p>
        Finished <Time iso={record.finished_at} timeZone={viewer.timeZone} />. The uploaded file has been removed.
      </p>
      <div class="actions">
        <a class="button" href="/console/students">
          The students
        </a>
        <a href={UPLOAD_PATH}>Import another file</a>
      </div>
    </Layout>
  );
}
