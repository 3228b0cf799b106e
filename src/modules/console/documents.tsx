import multipart, { type Multipart } from '@fastify/multipart';
import type { Children } from '@kitajs/html';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { toAppError } from '../../http/errors.ts';
import { listRequest } from '../../http/list.ts';
import { isBrokenBody, type MultipartSent } from '../../http/multipart.ts';
import { describeRange, requestedRange } from '../../http/ranges.ts';
import { StringEnum } from '../../http/schemas.ts';
import { MalformedRequestError, NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import { DOCUMENT_STATUSES, type Document, type DocumentStatus } from '../documents/schemas.ts';
import type { DocumentService, UploadPart } from '../documents/service.ts';
import { DOCUMENT_TYPES, type DocumentType } from '../documents/types.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { Csrf, ErrorSummary, fieldId, Layout, Pagination, PostButton, ScrollingTable, Select, TextField, Time } from './layout.tsx';
import { may, type Viewer } from './viewer.ts';
import { formatBytes, idOf, listHref, WholeNumber } from './work.ts';
import { UPLOAD_SCRIPT_PATH } from './work-assets.ts';

export interface DocumentPageDeps {
  documents: DocumentService;
  maxPageSize: number;
}

export const TYPE_LABELS: Record<DocumentType, string> = {
  profile_document: 'Profile document',
  employment_letter: 'Employment letter',
  character_reference: 'Character reference',
  training_certificate: 'Training certificate',
  course_document: 'Course document',
  generated_report: 'Generated report',
};

const STATUS_LABELS: Record<DocumentStatus, string> = {
  stored: 'Stored (being checked)',
  available: 'Available',
  archived: 'Archived',
  deleted: 'Deleted',
};

/** How many older and newer versions a document's page shows, each way. */
const VERSIONS_SHOWN = 10;

/** The list's query, as the URL gives it (text; an empty filter is no filter). */
const DocumentQuery = Type.Object({
  type: Type.Optional(StringEnum(['', ...DOCUMENT_TYPES])),
  status: Type.Optional(StringEnum(['', ...DOCUMENT_STATUSES])),
  student_id: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,9})?$', 'x-message': 'must be a student’s id, a whole number' })),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type DocumentQuery = Static<typeof DocumentQuery>;
const LIST_KEYS = ['type', 'status', 'student_id', 'per_page', 'page'] as const;

/** The upload form's fields, in their order (the error summary follows it; the file comes last). */
const UPLOAD_FIELDS = ['type', 'title', 'student_id', 'supersedes_id', 'file'] as const;
type UploadForm = Partial<Record<(typeof UPLOAD_FIELDS)[number], string>>;

export const documentPath = (id: number) => `/console/documents/${id}`;
const documentName = (document: Document) => document.title ?? document.filename;

/**
 * The parts of an upload still to read, once its first part (the CSRF token) has been read: a console
 * form's `_csrf` comes first, so that the guard can check it before the file is read at all.
 */
const uploads = new WeakMap<FastifyRequest, AsyncIterator<Multipart>>();

/**
 * The console's documents (CONTRACT, "Documents"): the list, an upload as a multipart form that
 * needs no script (a small one of ours shows its progress), a document's page with its versions,
 * archive, delete after a page that asks to confirm, and the download. Everything goes through the
 * documents service with the user's context: without documents.manage a change is a 403.
 */
export function documentPages(app: FastifyInstance, deps: DocumentPageDeps): void {
  const { documents } = deps;

  app.get('/console/documents', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const query = validateInput(DocumentQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'id', defaultDirection: 'desc' },
    );
    const filter = {
      type: query.type || undefined,
      status: query.status || undefined,
      studentId: query.student_id ? Number(query.student_id) : undefined,
    };
    const page = await documents.list(viewer.ctx, filter, list);
    return sendPage(
      reply,
      200,
      <DocumentList viewer={viewer} query={query} items={page.items}>
        <Pagination
          page={list.page.page}
          perPage={list.page.perPage}
          total={page.total}
          href={(n) => listHref('/console/documents', LIST_KEYS, query, { page: String(n) })}
        />
      </DocumentList>,
    );
  });

  app.get<{ Querystring: { supersedes?: string } }>(
    '/console/documents/new',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const prior = request.query.supersedes ? await documents.get(viewer.ctx, idOf(request.query.supersedes)) : undefined;
      const form: UploadForm = prior ? { type: prior.type, supersedes_id: String(prior.id) } : {};
      return sendPage(reply, 200, <UploadPage viewer={viewer} deps={deps} form={form} prior={prior} />);
    },
  );

  // The upload, in a scope of its own that reads multipart bodies as the API's upload does: streamed
  // to storage, never whole in memory; the parser's own limit a byte above the largest type's.
  app.register(async (scope) => {
    const largest = Math.max(...Object.values(documents.rules).map((rule) => rule.maxBytes));
    await scope.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 1024, fileSize: largest + 1, parts: 12 } });

    scope.post(
      '/console/documents',
      {
        config: { access: PAGE },
        schema: { hide: true },
        // Before the guard (a preHandler): the form's first part, its CSRF token, as the guard reads it.
        preValidation: async (request) => {
          if (!request.isMultipart()) return;
          const parts = request.parts()[Symbol.asyncIterator]();
          uploads.set(request, parts);
          const first = await parts.next().catch((error: unknown) => {
            // A body the parser cannot read is the client's (400), before the guard has looked at it.
            throw toAppError(error).status >= 500 ? new MalformedRequestError('The upload could not be read; nothing was kept.') : error;
          });
          const csrf = !first.done && first.value.type === 'field' && first.value.fieldname === '_csrf' ? first.value.value : undefined;
          request.body = typeof csrf === 'string' ? { _csrf: csrf } : {};
        },
      },
      async (request, reply) => {
        const viewer = viewerOf(request);
        viewer.back = '/console/documents/new';
        const parts = uploads.get(request);
        if (!request.isMultipart() || !parts) {
          throw new UnsupportedMediaTypeError('Send the upload form as multipart/form-data, the form of the upload page.');
        }
        const sent: MultipartSent = { fields: {}, file: null, failures: new WeakSet() };
        const typed: UploadForm = {};
        try {
          const created = await documents.upload(viewer.ctx, uploadParts(parts, sent, typed));
          return seeOther(reply, `${documentPath(created.id)}?notice=uploaded`);
        } catch (error) {
          if (isBrokenBody(error, request, sent)) {
            throw new MalformedRequestError('The upload was cut short or could not be read; nothing was kept.');
          }
          const errors =
            error instanceof ValidationError
              ? firstErrors(error)
              : [413, 415].includes(toAppError(error).status)
                ? { file: toAppError(error).message }
                : undefined;
          if (!errors) throw error;
          const status = error instanceof ValidationError ? 422 : toAppError(error).status;
          const prior = typed.supersedes_id ? await documents.get(viewer.ctx, idOf(typed.supersedes_id)).catch(() => undefined) : undefined;
          return sendPage(reply, status, <UploadPage viewer={viewer} deps={deps} form={typed} prior={prior} errors={errors} />);
        }
      },
    );
  });

  app.get<{ Params: { document: string }; Querystring: { notice?: string } }>(
    '/console/documents/:document',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const document = await documents.get(viewer.ctx, idOf(request.params.document));
      const versions = await versionsOf(documents, viewer, document);
      const notice = NOTICES[request.query.notice ?? ''];
      return sendPage(reply, 200, <DocumentPage viewer={viewer} document={document} versions={versions} notice={notice} />);
    },
  );

  app.post<{ Params: { document: string } }>(
    '/console/documents/:document/archive',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.document);
      viewer.back = documentPath(id);
      await documents.archive(viewer.ctx, id);
      return seeOther(reply, `${documentPath(id)}?notice=archived`);
    },
  );

  app.get<{ Params: { document: string } }>(
    '/console/documents/:document/delete',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const document = await documents.get(viewer.ctx, idOf(request.params.document));
      return sendPage(reply, 200, <DeletePage viewer={viewer} document={document} />);
    },
  );

  app.post<{ Params: { document: string } }>(
    '/console/documents/:document/delete',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.document);
      viewer.back = documentPath(id);
      await documents.delete(viewer.ctx, id);
      return seeOther(reply, `${documentPath(id)}?notice=deleted`);
    },
  );

  // The file, as the API sends it (a range when asked for), read through the service; a deleted
  // document's is a 404. An attachment, never shown in the console's origin.
  app.get<{ Params: { document: string } }>(
    '/console/documents/:document/download',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const current = await documents.get(viewer.ctx, idOf(request.params.document));
      if (current.status === 'deleted') throw new NotFoundError();
      const etag = `"${current.sha256.slice(0, 32)}"`;
      const range = requestedRange(request, current.size, etag);
      const { stream } = await documents.open(viewer.ctx, current.id, range ?? undefined);
      reply.headers({
        etag,
        'accept-ranges': 'bytes',
        'content-disposition': contentDisposition(current.filename, { type: 'attachment' }),
        'cache-control': 'private, no-store',
        'referrer-policy': 'no-referrer',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      reply.type(current.media_type);
      describeRange(reply, range, current.size);
      return reply.send(stream as never);
    },
  );
}

/**
 * The parts of an upload after its CSRF token, as the documents service reads them: the fields noted
 * as typed (to show the form again), the file streamed. A file input left empty (a browser sends a
 * part without a file name) is no file.
 */
async function* uploadParts(parts: AsyncIterator<Multipart>, sent: MultipartSent, typed: UploadForm): AsyncGenerator<UploadPart> {
  const noted = (error: unknown) => {
    if (error instanceof Error) sent.failures.add(error);
  };
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        sent.fields[part.fieldname] = value;
        if ((UPLOAD_FIELDS as readonly string[]).includes(part.fieldname)) typed[part.fieldname as keyof UploadForm] = value;
        yield { kind: 'field', name: part.fieldname, value };
        continue;
      }
      part.file.on('error', noted);
      if (part.filename === '') {
        part.file.resume();
        continue;
      }
      sent.file ??= { name: part.fieldname, filename: part.filename, mediaType: part.mimetype };
      yield { kind: 'file', name: part.fieldname, file: { stream: part.file, filename: part.filename, mediaType: part.mimetype } };
    }
  } catch (error) {
    noted(error);
    throw error;
  }
}

const NOTICES: Record<string, string> = {
  uploaded: 'The document is uploaded. Its stored file is checked in the background; then it is available.',
  archived: 'The document is archived. It can still be downloaded.',
  deleted: 'The document is deleted. It stays listed, but its file can no longer be downloaded.',
};

interface Versions {
  /** Oldest first, the document itself among them. */
  items: Document[];
  older: boolean;
  newer: boolean;
}

/** A document's versions around it: the ones it superseded and the ones that superseded it, a few each way. */
async function versionsOf(documents: DocumentService, viewer: Viewer, document: Document): Promise<Versions> {
  const older: Document[] = [];
  let prior = document.supersedes_id;
  while (prior !== null && older.length < VERSIONS_SHOWN) {
    const version: Document = await documents.get(viewer.ctx, prior);
    older.unshift(version);
    prior = version.supersedes_id;
  }
  const newer: Document[] = [];
  let next = document.superseded_by_id;
  while (next !== null && newer.length < VERSIONS_SHOWN) {
    const version: Document = await documents.get(viewer.ctx, next);
    newer.push(version);
    next = version.superseded_by_id;
  }
  return { items: [...older, document, ...newer], older: prior !== null, newer: next !== null };
}

function StatusTag(props: { status: DocumentStatus }): JSX.Element {
  return (
    <span class="state" safe>
      {STATUS_LABELS[props.status]}
    </span>
  );
}

function DocumentList(props: { viewer: Viewer; query: DocumentQuery; items: Document[]; children: Children }): JSX.Element {
  const { viewer, query } = props;
  const filtered = Boolean(query.type || query.status || query.student_id);
  return (
    <Layout viewer={viewer} title="Documents" section="documents">
      {may(viewer, 'documents.manage') && (
        <div class="actions">
          <a class="button" href="/console/documents/new">
            Upload a document
          </a>
        </div>
      )}
      <form class="filters" method="get" action="/console/documents" aria-label="Filter the documents">
        <Select
          name="type"
          label="Type"
          value={query.type ?? ''}
          options={[['', 'Any type'], ...DOCUMENT_TYPES.map((type) => [type, TYPE_LABELS[type]] as const)]}
        />
        <Select
          name="status"
          label="Status"
          value={query.status ?? ''}
          options={[['', 'Any status'], ...DOCUMENT_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const)]}
        />
        <TextField name="student_id" label="Student’s id" value={query.student_id ?? ''} inputmode="numeric" />
        {query.per_page ? <input type="hidden" name="per_page" value={query.per_page} /> : ''}
        <div class="buttons">
          <button type="submit" class="primary">
            Show documents
          </button>
          {filtered && <a href="/console/documents">Clear the filters</a>}
        </div>
      </form>
      {props.items.length === 0 ? (
        <p class="notice" role="status">
          {filtered ? 'No document matches these filters.' : 'No document has been uploaded yet.'}
        </p>
      ) : (
        <ScrollingTable label="Documents, newest first">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col" class="number">
                Size
              </th>
              <th scope="col">Uploaded</th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((document) => (
              <tr>
                <td>
                  <a href={documentPath(document.id)} safe>
                    {documentName(document)}
                  </a>
                </td>
                <td safe>{TYPE_LABELS[document.type]}</td>
                <td>
                  <StatusTag status={document.status} />
                </td>
                <td class="number nowrap" safe>
                  {formatBytes(document.size)}
                </td>
                <td>
                  <Time iso={document.created_at} timeZone={viewer.timeZone} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {props.children}
    </Layout>
  );
}

/** The file input with its label, hint and error, as the layout's fields are. */
function FileField(props: { name: string; label: string; hint: string; error?: string | undefined }): JSX.Element {
  const id = fieldId(props.name);
  const describedBy = [`${id}-hint`, props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id} safe>
        {props.label}
      </label>
      <p class="hint" id={`${id}-hint`} safe>
        {props.hint}
      </p>
      <input
        id={id}
        name={props.name}
        type="file"
        required
        aria-describedby={describedBy}
        aria-invalid={props.error ? 'true' : undefined}
      />
      {props.error ? (
        <p class="error" id={`${id}-error`}>
          <span class="visually-hidden">Error: </span>
          <span safe>{props.error}</span>
        </p>
      ) : (
        ''
      )}
    </div>
  );
}

function UploadPage(props: {
  viewer: Viewer;
  deps: DocumentPageDeps;
  form: UploadForm;
  prior?: Document | undefined;
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, form, prior } = props;
  const errors = props.errors ?? {};
  const heading = prior ? `A new version of “${documentName(prior)}”` : 'Upload a document';
  const title = Object.keys(errors).length ? `${heading} (not uploaded)` : heading;
  if (!may(viewer, 'documents.manage')) {
    return (
      <Layout viewer={viewer} title={heading} section="documents">
        <p class="notice">Uploading a document needs the documents.manage permission, which you do not hold.</p>
        <p>
          <a href="/console/documents">Back to the documents</a>
        </p>
      </Layout>
    );
  }
  const rules = props.deps.documents.rules;
  const priorType: string = prior ? `${TYPE_LABELS[prior.type]}: a new version has the type of the one it replaces.` : '';
  return (
    <Layout viewer={viewer} title={title} section="documents">
      <ErrorSummary errors={errors} order={UPLOAD_FIELDS} />
      {prior ? (
        <p safe>{`It replaces version ${prior.id} (${prior.filename}), which is archived as the new one is stored.`}</p>
      ) : (
        <p>The file is checked as it arrives: its type is read from its content, and each kind of document has its size limit.</p>
      )}
      <form method="post" action="/console/documents" enctype="multipart/form-data" novalidate data-upload-progress="upload-progress">
        {/* The CSRF token first: the server checks it before it reads the file. */}
        <Csrf token={viewer.csrf} />
        {prior ? (
          <>
            <input type="hidden" name="supersedes_id" value={String(prior.id)} />
            <input type="hidden" name="type" value={prior.type} />
            <p>
              <strong>Type:</strong> <span safe>{priorType}</span>
            </p>
          </>
        ) : (
          <Select
            name="type"
            label="Type"
            value={form.type ?? ''}
            error={errors.type}
            options={[['', 'Choose a type'], ...DOCUMENT_TYPES.map((type) => [type, TYPE_LABELS[type]] as const)]}
          />
        )}
        <TextField name="title" label="Title (optional)" value={form.title} error={errors.title} />
        <TextField
          name="student_id"
          label="Student’s id (optional)"
          hint="The student the document belongs to, if any."
          value={form.student_id}
          error={errors.student_id}
          inputmode="numeric"
        />
        {errors.supersedes_id ? (
          <p class="error" id={fieldId('supersedes_id')} safe>
            {errors.supersedes_id}
          </p>
        ) : (
          ''
        )}
        <FileField name="file" label="File" hint="A PDF, an image or an office document, as its type allows (below)." error={errors.file} />
        <div id="upload-progress" class="upload-progress" role="status" hidden>
          <progress max="100" value="0" aria-labelledby="upload-progress-text"></progress> <span id="upload-progress-text">Sending…</span>
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Upload
          </button>
          <a href={prior ? documentPath(prior.id) : '/console/documents'}>Cancel</a>
        </div>
      </form>
      <details>
        <summary>What each type of document accepts</summary>
        <ScrollingTable label="Types of document">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col" class="number">
                Largest file
              </th>
              <th scope="col">Kinds of file</th>
            </tr>
          </thead>
          <tbody>
            {DOCUMENT_TYPES.map((type) => (
              <tr>
                <td safe>{TYPE_LABELS[type]}</td>
                <td class="number nowrap" safe>
                  {formatBytes(rules[type].maxBytes)}
                </td>
                <td safe>{rules[type].mediaTypes.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </details>
      <script src={UPLOAD_SCRIPT_PATH} defer></script>
    </Layout>
  );
}

function DocumentPage(props: { viewer: Viewer; document: Document; versions: Versions; notice?: string | undefined }): JSX.Element {
  const { viewer, document, versions } = props;
  const manage = may(viewer, 'documents.manage');
  const current = document.superseded_by_id === null;
  const path = documentPath(document.id);
  const size = `${formatBytes(document.size)} (${document.size} bytes)`;
  return (
    <Layout viewer={viewer} title={documentName(document)} section="documents">
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/console/documents">← The documents</a>
      </p>
      <div class="actions">
        {document.status !== 'deleted' && (
          <a class="button" href={`${path}/download`}>
            Download
          </a>
        )}
        {manage && current && (document.status === 'stored' || document.status === 'available') && (
          <>
            <a class="button" href={`/console/documents/new?supersedes=${document.id}`}>
              Upload a new version
            </a>
            <PostButton action={`${path}/archive`} csrf={viewer.csrf} label="Archive" />
          </>
        )}
        {manage && document.status !== 'deleted' && (
          <a class="button" href={`${path}/delete`}>
            Delete…
          </a>
        )}
      </div>
      <dl class="record">
        <dt>Status</dt>
        <dd>
          <StatusTag status={document.status} />
          {document.failure_reason ? (
            <p class="hint" safe>
              {document.failure_reason}
            </p>
          ) : (
            ''
          )}
        </dd>
        <dt>Type</dt>
        <dd safe>{TYPE_LABELS[document.type]}</dd>
        <dt>File</dt>
        <dd safe>{document.filename}</dd>
        <dt>Kind of file</dt>
        <dd safe>{document.media_type}</dd>
        <dt>Size</dt>
        <dd safe>{size}</dd>
        <dt>SHA-256</dt>
        <dd>
          <code safe>{document.sha256}</code>
        </dd>
        <dt>Student</dt>
        <dd safe>{document.student_id === null ? '—' : `Student ${document.student_id}`}</dd>
        <dt>Uploaded</dt>
        <dd>
          <Time iso={document.created_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Available since</dt>
        <dd>
          <Time iso={document.available_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Archived</dt>
        <dd>
          <Time iso={document.archived_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Deleted</dt>
        <dd>
          <Time iso={document.deleted_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>
      <h2>Versions</h2>
      {versions.items.length === 1 ? (
        <p>This is the only version.</p>
      ) : (
        <>
          {versions.older && <p class="hint">Older versions than these are not shown.</p>}
          <ScrollingTable label="Versions, oldest first">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Size
                </th>
                <th scope="col">Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {versions.items.map((version) => (
                <tr>
                  <td>
                    {version.id === document.id ? (
                      <span aria-current="page" safe>{`${documentName(version)} (this one)`}</span>
                    ) : (
                      <a href={documentPath(version.id)} safe>
                        {documentName(version)}
                      </a>
                    )}
                  </td>
                  <td>
                    <StatusTag status={version.status} />
                  </td>
                  <td class="number nowrap" safe>
                    {formatBytes(version.size)}
                  </td>
                  <td>
                    <Time iso={version.created_at} timeZone={viewer.timeZone} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          {versions.newer && <p class="hint">Newer versions than these are not shown.</p>}
        </>
      )}
    </Layout>
  );
}

function DeletePage(props: { viewer: Viewer; document: Document }): JSX.Element {
  const { viewer, document } = props;
  const path = documentPath(document.id);
  const question = `Delete “${documentName(document)}”?`;
  if (document.status === 'deleted') {
    return (
      <Layout viewer={viewer} title={documentName(document)} section="documents">
        <p class="notice" role="status">
          This document is deleted already.
        </p>
        <p>
          <a href={path}>Back to the document</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout viewer={viewer} title={question} section="documents">
      <p>The document stays listed as deleted, with its history; its file can no longer be downloaded. This cannot be undone.</p>
      {may(viewer, 'documents.manage') ? (
        <form method="post" action={`${path}/delete`} class="actions">
          <Csrf token={viewer.csrf} />
          <button type="submit" class="primary">
            Delete the document
          </button>
          <a href={path}>Cancel: keep it</a>
        </form>
      ) : (
        <>
          <p class="notice">Deleting a document needs the documents.manage permission, which you do not hold.</p>
          <p>
            <a href={path}>Back to the document</a>
          </p>
        </>
      )}
    </Layout>
  );
}
