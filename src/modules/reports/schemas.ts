import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { DateString, Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { REPORT_FORMATS, REPORT_TYPES, REPORTS } from './types.ts';

export const REPORT_STATUSES = ['requested', 'generating', 'generated', 'stored', 'available', 'expired', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_TYPE_TABLE = Object.entries(REPORTS)
  .map(([type, r]) => `| \`${type}\` | ${r.description} | ${r.parameters.map((p) => `\`${p}\``).join(', ')} | ${r.expiryDays} days |`)
  .join('\n');

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

export const ReportParametersSchema = Type.Object(
  {
    course_id: Type.Optional(Id('Only this course (by id).')),
    session_id: Type.Optional(Id('Only this session.')),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Enrolment status, or session workflow state.' })),
    from: Type.Optional(DateString('From this day (inclusive, UTC).')),
    to: Type.Optional(DateString('To this day (inclusive, UTC).')),
  },
  { additionalProperties: false },
);

export const Report = Type.Object(
  {
    id: Type.Integer(),
    type: StringEnum(REPORT_TYPES, { description: 'What the report lists.' }),
    format: StringEnum(REPORT_FORMATS, { description: '`csv` (UTF-8, RFC 4180) or `xlsx`.' }),
    status: StringEnum(REPORT_STATUSES, {
      description:
        '`requested` → `generating` → `generated` (rows written) → `stored` (file kept) → `available` (downloadable) → `expired` ' +
        '(file removed after the type’s expiry days); or `failed`, with `failure_reason`.',
    }),
    parameters: ReportParametersSchema,
    progress: Type.Integer({ minimum: 0, maximum: 100, description: 'Percent of the rows written so far.' }),
    row_count: Nullable(Type.Integer({ description: 'Rows written so far (while generating), then in all.' })),
    size: Nullable(Type.Integer({ description: 'Bytes of the file, once stored.' })),
    sha256: Nullable(Type.String({ description: 'Hex SHA-256 of the file, once stored.' })),
    failure_reason: Nullable(Type.String()),
    download_path: Nullable(Type.String({ description: 'Where the file is read once `available` (GET, reports:read).' })),
    generated_at: Nullable(Timestamp('When the rows were written.')),
    available_at: Nullable(Timestamp('When it became available.')),
    expires_at: Nullable(Timestamp('When the expiry task removes it.')),
    expired_at: Nullable(Timestamp('When it expired.')),
    failed_at: Nullable(Timestamp('When generation failed.')),
    created_at: Timestamp('When it was requested.'),
    updated_at: Timestamp('Last change (progress included).'),
  },
  { $id: 'Report' },
);
export type Report = Static<typeof Report>;

export const ReportRequest = Type.Object(
  {
    type: StringEnum(REPORT_TYPES, { description: 'What to list.' }),
    format: Type.Optional(StringEnum(REPORT_FORMATS, { description: 'Default `csv`.' })),
    parameters: Type.Optional(ReportParametersSchema),
  },
  { additionalProperties: false, $id: 'ReportRequest' },
);
export type ReportRequest = Static<typeof ReportRequest>;

export const REPORT_SORTS = ['id', 'created_at', 'updated_at'] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];

export const ReportListQuery = ListQuery({
  sort: REPORT_SORTS,
  filters: {
    type: Type.Optional(StringEnum(REPORT_TYPES, { description: 'Only reports of this type.' })),
    status: Type.Optional(StringEnum(REPORT_STATUSES, { description: 'Only reports in this status.' })),
  },
});
