import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { DEFAULT_DOCUMENT_TYPES, DOCUMENT_TYPES } from './types.ts';

export const DOCUMENT_STATUSES = ['stored', 'available', 'archived', 'deleted'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** The default rules, for the OpenAPI description (the deployment may replace them: README, Documents). */
export const DOCUMENT_TYPE_TABLE = Object.entries(DEFAULT_DOCUMENT_TYPES)
  .map(([type, rule]) => `| \`${type}\` | ${rule.maxBytes / (1024 * 1024)} MB | ${rule.mediaTypes.map((t) => `\`${t}\``).join(', ')} |`)
  .join('\n');

export const Document = Type.Object(
  {
    id: Type.Integer(),
    type: StringEnum(DOCUMENT_TYPES, { description: 'What the document is; sets its size limit and accepted media types.' }),
    status: StringEnum(DOCUMENT_STATUSES, {
      description:
        '`stored` (received, being checked), `available` (checked; downloadable), `archived` (kept, superseded or put away; ' +
        'still downloadable), `deleted` (soft and final: listed, but its download is a 404).',
    }),
    title: Nullable(Type.String({ description: 'A title of the client’s choosing.' })),
    filename: Type.String({ description: 'The file name the client uploaded, as sent back on download.' }),
    media_type: Type.String({ description: 'Sniffed from the content (its signature), never taken from the client.' }),
    size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({ description: 'Hex SHA-256 of the content, computed while it was received.' }),
    student_id: Nullable(Type.Integer({ description: 'The student it belongs to (GET /students/{student}), if any.' })),
    supersedes_id: Nullable(Type.Integer({ description: 'The prior version this one replaced (archived by the upload).' })),
    superseded_by_id: Nullable(Type.Integer({ description: 'The newer version that replaced this one, if any.' })),
    failure_reason: Nullable(
      Type.String({
        description:
          'Why a `stored` document is not available: its stored file did not match what was received, or could not be ' +
          'read back to be checked (after every retry). Null once it is available, and for every document without a problem.',
      }),
    ),
    download_path: Type.String({ description: 'Where the file is read: GET this path (documents:read).' }),
    available_at: Nullable(Timestamp('When the stored file was checked and made available.')),
    archived_at: Nullable(Timestamp('When it was archived.')),
    deleted_at: Nullable(Timestamp('When it was deleted.')),
    created_at: Timestamp('When it was uploaded.'),
    updated_at: Timestamp('Last change.'),
  },
  { $id: 'Document' },
);
export type Document = Static<typeof Document>;

export const DocumentPatch = Type.Object(
  {
    title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    student_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'A student’s id, or null.' }))),
  },
  { additionalProperties: false, minProperties: 1, $id: 'DocumentPatch' },
);
export type DocumentPatch = Static<typeof DocumentPatch>;

export const DOCUMENT_SORTS = ['id', 'created_at', 'updated_at', 'title', 'size'] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];

export const DocumentListQuery = ListQuery({
  sort: DOCUMENT_SORTS,
  filters: {
    type: Type.Optional(StringEnum(DOCUMENT_TYPES, { description: 'Only documents of this type.' })),
    status: Type.Optional(
      StringEnum(DOCUMENT_STATUSES, { description: 'Only documents in this status (deleted ones included when asked for).' }),
    ),
    student_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only documents of this student.' })),
  },
});

const FormId = (description: string) => Type.Optional(Type.String({ format: 'form-id', description }));

/** The form fields of an upload so far (multipart text, before the file): each checked as it arrives. */
export const UploadFieldsSoFar = Type.Object(
  {
    type: Type.Optional(StringEnum(DOCUMENT_TYPES)),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    student_id: FormId('The student the document is about; empty for none.'),
    supersedes_id: FormId('The current version this upload replaces; empty for none.'),
  },
  { additionalProperties: false },
);

/** The form fields of a whole upload: as above, the type required. */
export const UploadFields = Type.Object(
  { ...UploadFieldsSoFar.properties, type: StringEnum(DOCUMENT_TYPES) },
  { additionalProperties: false },
);
