import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { ConfigError } from '../../config.ts';

export const DOCUMENT_TYPES = [
  'profile_document',
  'employment_letter',
  'character_reference',
  'training_certificate',
  'course_document',
  'generated_report',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface DocumentTypeRule {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The media types accepted, as sniffed from the content. */
  mediaTypes: readonly string[];
}

const MB = 1024 * 1024;
const PDF = 'application/pdf';
const IMAGES = ['image/jpeg', 'image/png', 'image/webp'];
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/** The defaults (README: Documents); ACADEMY_DOCUMENT_TYPES_FILE replaces them type by type. */
export const DEFAULT_DOCUMENT_TYPES: Record<DocumentType, DocumentTypeRule> = {
  profile_document: { maxBytes: 10 * MB, mediaTypes: [...IMAGES, PDF] },
  employment_letter: { maxBytes: 10 * MB, mediaTypes: [PDF, DOCX] },
  character_reference: { maxBytes: 10 * MB, mediaTypes: [PDF, DOCX] },
  training_certificate: { maxBytes: 20 * MB, mediaTypes: [PDF, 'image/jpeg', 'image/png'] },
  course_document: {
    maxBytes: 512 * MB,
    mediaTypes: [
      PDF,
      DOCX,
      XLSX,
      PPTX,
      'application/zip',
      'text/plain',
      'text/csv',
      'image/jpeg',
      'image/png',
      'video/mp4',
      'application/octet-stream',
    ],
  },
  generated_report: { maxBytes: 512 * MB, mediaTypes: ['text/csv', XLSX] },
};

const Rules = Type.Record(
  Type.String(),
  Type.Object(
    {
      max_bytes: Type.Integer({ minimum: 1, maximum: 64 * 1024 * MB }),
      media_types: Type.Array(Type.String({ pattern: '^[a-z0-9.+-]+/[a-z0-9.+-]+$' }), { minItems: 1 }),
    },
    { additionalProperties: false },
  ),
);

/**
 * The rules of every type: the defaults, with the types that ACADEMY_DOCUMENT_TYPES_FILE names
 * replaced. The file is JSON: `{"course_document": {"max_bytes": 1073741824, "media_types": ["application/pdf"]}}`.
 */
export function loadDocumentTypes(file: string | null): Record<DocumentType, DocumentTypeRule> {
  const rules = { ...DEFAULT_DOCUMENT_TYPES };
  if (!file) return rules;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError('ACADEMY_DOCUMENT_TYPES_FILE', `cannot be read as JSON (${(error as Error).message})`);
  }
  if (!Value.Check(Rules, parsed)) {
    const first = [...Value.Errors(Rules, parsed)][0];
    throw new ConfigError('ACADEMY_DOCUMENT_TYPES_FILE', `is not valid (${first?.instancePath ?? ''} ${first?.message ?? ''})`);
  }
  for (const [type, rule] of Object.entries(parsed)) {
    if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) {
      throw new ConfigError(
        'ACADEMY_DOCUMENT_TYPES_FILE',
        `names an unknown document type "${type}" (known: ${DOCUMENT_TYPES.join(', ')})`,
      );
    }
    rules[type as DocumentType] = { maxBytes: rule.max_bytes, mediaTypes: rule.media_types };
  }
  return rules;
}

/** The largest file any type accepts: the limit of an upload whose type is not known yet. */
export function largestLimit(rules: Record<DocumentType, DocumentTypeRule>): number {
  return Math.max(...Object.values(rules).map((rule) => rule.maxBytes));
}
