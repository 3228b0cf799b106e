import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { matchesIfNoneMatch } from '../../http/conventions.ts';
import { multipartDigest, rememberBodyDigest } from '../../http/idempotency.ts';
import { listRequest, sendList } from '../../http/list.ts';
import { readMultipart } from '../../http/multipart.ts';
import { ListOf } from '../../http/pagination.ts';
import { ifMatch } from '../../http/preconditions.ts';
import { describeRange, requestedRange } from '../../http/ranges.ts';
import { ErrorBody, FileResponse, IdParam, Ref, Single } from '../../http/schemas.ts';
import { NotFoundError, UnsupportedMediaTypeError } from '../../platform/errors.ts';
import { DOCUMENT_TYPE_TABLE, Document, DocumentListQuery, DocumentPatch } from './schemas.ts';
import type { DocumentService } from './service.ts';
import { DOCUMENT_TYPES } from './types.ts';

export const documentRoutes: FastifyPluginAsyncTypebox<{ documents: DocumentService; maxPageSize: number }> = async (
  app,
  { documents, maxPageSize },
) => {
  app.addSchema(Document);
  app.addSchema(DocumentPatch);
  const error = Ref(ErrorBody);
  const document = Ref(Document);
  const largest = Math.max(...Object.values(documents.rules).map((rule) => rule.maxBytes));
  const mediaTypes = Object.values(documents.rules).flatMap((rule) => rule.mediaTypes);
  // Streamed: nothing is buffered by the parser; the service meters and limits the file itself, so the
  // parser's own limit is one byte above the largest type's and never the one that answers.
  await app.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 1024, fileSize: largest + 1, parts: 12 } });

  app.get('/documents', {
    config: { access: { scope: 'documents:read' } },
    schema: {
      operationId: 'listDocuments',
      tags: ['Documents'],
      summary: 'List documents',
      description:
        'Every document, deleted ones included (with `status: deleted`), by id unless `sort` says otherwise. An unknown `type` or ' +
        '`status` is a 422.',
      querystring: DocumentListQuery,
      response: { 200: ListOf(document), 422: error },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { type: request.query.type, status: request.query.status, studentId: request.query.student_id };
      return sendList(request, reply, list, await documents.list(request.ctx, filter, list));
    },
  });

  app.post('/documents', {
    config: { access: { scope: 'documents:write' }, errors: { 409: ['invalid_transition', 'conflict'] }, location: true },
    // The body is a stream read by the handler; the schema below documents it.
    validatorCompiler: () => () => true,
    schema: {
      operationId: 'uploadDocument',
      tags: ['Documents'],
      summary: 'Upload a document',
      description:
        'A `multipart/form-data` body with the fields `type`, optional `title`, `student_id` and `supersedes_id`, and one `file` ' +
        '(send the fields before the file: then a refused file is refused as soon as its first bytes arrive). The file streams to ' +
        'storage with its size and SHA-256 recorded; its media type is read from its content (signature), never from the file ' +
        'name or the declared type. Answers 201 with the document in `stored` and its `Location`; a job checks the stored file ' +
        'and makes it `available`. With `supersedes_id` the upload is a new version: the prior version (same type) is archived ' +
        'in the same transaction. Only the current version takes a new version: one already superseded or archived is a 409 ' +
        '`conflict` (of concurrent new versions of one document, one wins), a deleted prior a 409 `invalid_transition`, another ' +
        'type a 422.\n\n' +
        'A file larger than its type allows is a 413 `payload_too_large`, content of a media type it does not accept a 415 ' +
        '`unsupported_media_type`, a missing or unknown field a 422; after any refusal, or an upload cut short, nothing is ' +
        'kept. With an `Idempotency-Key`, a repeat is replayed only when it sends the same fields and the same file (by its ' +
        'bytes, name and declared type; its multipart boundary and the order of its parts do not matter), which is read to tell; ' +
        'another upload under the key is a 422 `idempotency_key_reused`, and an upload that was refused leaves its key free. ' +
        'Defaults per type (a deployment may change them, ACADEMY_DOCUMENT_TYPES_FILE):\n\n' +
        '| type | largest file | media types |\n|---|---|---|\n' +
        DOCUMENT_TYPE_TABLE,
      consumes: ['multipart/form-data'],
      body: Type.Object(
        {
          type: Type.String({ enum: [...DOCUMENT_TYPES] }),
          file: Type.String({ contentEncoding: 'binary', description: 'The file.' }),
          title: Type.Optional(Type.String({ maxLength: 200 })),
          student_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
          supersedes_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
        },
        {
          examples: [{ type: 'employment_letter', title: 'Employment letter, Contoso Ltd', student_id: 30, file: '%PDF-1.7 …' }],
        },
      ),
      response: { 201: Single(document), 400: error, 409: error, 413: error, 415: error, 422: error },
    },
    handler: async (request, reply) => {
      if (!request.isMultipart()) {
        throw new UnsupportedMediaTypeError('Send the document as multipart/form-data with the fields type and file.');
      }
      const { result: data, sent } = await readMultipart(request, (parts) => documents.upload(request.ctx, parts), 'nothing was kept.');
      // The stored file's SHA-256 is that of the bytes sent: a repeat under the same key must send the same.
      if (sent.file) rememberBodyDigest(request, multipartDigest(sent.fields, { ...sent.file, sha256: data.sha256 }));
      return reply.code(201).header('location', `/api/v1/documents/${data.id}`).send({ data });
    },
  });

  app.get('/documents/:document', {
    config: { access: { scope: 'documents:read' } },
    schema: {
      operationId: 'getDocument',
      tags: ['Documents'],
      summary: 'Get a document',
      description: 'Its metadata, status and versions; the file itself is at `download_path`.',
      params: Type.Object({ document: IdParam }),
      response: { 200: Single(document), 404: error },
    },
    handler: async (request) => ({ data: await documents.get(request.ctx, request.params.document) }),
  });

  app.patch('/documents/:document', {
    config: { access: { scope: 'documents:write' }, errors: { 409: ['invalid_transition'] } },
    schema: {
      operationId: 'updateDocument',
      tags: ['Documents'],
      summary: 'Change a document’s metadata',
      description:
        'Only the fields sent (`title`, `student_id`); the file never changes here — a new file is a new version (POST with ' +
        '`supersedes_id`). A deleted document is a 409.',
      params: Type.Object({ document: IdParam }),
      body: Ref(DocumentPatch),
      response: { 200: Single(document), 404: error, 409: error, 422: error },
    },
    handler: async (request, reply) => ({
      data: await documents.update(request.ctx, request.params.document, request.body, ifMatch(request, reply)),
    }),
  });

  app.delete('/documents/:document', {
    config: { access: { scope: 'documents:write' }, errors: { 409: ['invalid_transition'] } },
    schema: {
      operationId: 'deleteDocument',
      tags: ['Documents'],
      summary: 'Delete a document',
      description:
        'Soft and final: the document stays listed with `status: deleted` and its download becomes a 404; the stored file is not ' +
        'removed. Deleting a deleted document is a 409.',
      params: Type.Object({ document: IdParam }),
      response: { 200: Single(document), 404: error, 409: error },
    },
    handler: async (request) => ({ data: await documents.delete(request.ctx, request.params.document) }),
  });

  app.post('/documents/:document/archive', {
    config: { access: { scope: 'documents:write' }, errors: { 409: ['invalid_transition'] } },
    schema: {
      operationId: 'archiveDocument',
      tags: ['Documents'],
      summary: 'Archive a document',
      description: '`stored` or `available` → `archived`; from any other state a 409 `invalid_transition`.',
      params: Type.Object({ document: IdParam }),
      response: { 200: Single(document), 404: error, 409: error },
    },
    handler: async (request) => ({ data: await documents.archive(request.ctx, request.params.document) }),
  });

  app.get('/documents/:document/download', {
    config: { access: { scope: 'documents:read' } },
    schema: {
      operationId: 'downloadDocument',
      tags: ['Documents'],
      summary: 'Download a document’s file',
      description:
        'The file, streamed, with its media type, length, an `ETag` (from its SHA-256), `Content-Disposition: attachment` with ' +
        'the file name (RFC 6266, UTF-8 `filename*`) and `X-Content-Type-Options: nosniff`. `Range: bytes=…` (one range; the unit in any case) gets a ' +
        '206 with `Content-Range`, an unsatisfiable one a 416; `If-Range` and `If-None-Match` are honoured. A deleted document ' +
        'is a 404.',
      params: Type.Object({ document: IdParam }),
      response: {
        200: FileResponse('The file, in its media type (one that its document type accepts).', mediaTypes),
        206: FileResponse('The requested bytes of the file (`Content-Range`), in its media type.', mediaTypes),
        304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag matches.' }),
        404: error,
        416: error,
      },
    },
    handler: async (request, reply) => {
      const current = await documents.get(request.ctx, request.params.document);
      if (current.status === 'deleted') throw new NotFoundError();
      const etag = `"${current.sha256.slice(0, 32)}"`;
      reply.header('etag', etag);
      reply.header('accept-ranges', 'bytes');
      reply.header('content-disposition', contentDisposition(current.filename, { type: 'attachment' }));
      reply.header('cache-control', 'private, no-cache');
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
        return reply.code(304).send(null);
      }
      const range = requestedRange(request, current.size, etag);
      const { stream } = await documents.open(request.ctx, current.id, range ?? undefined);
      reply.type(current.media_type);
      describeRange(reply, range, current.size);
      return reply.send(stream as never);
    },
  });
};
