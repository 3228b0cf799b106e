import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { Line, Text } from '../../platform/validation.ts';

export const RESOURCE_TYPES = ['link', 'file', 'text'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const RESOURCE_STATUSES = ['draft', 'published'] as const;
export type ResourceStatus = (typeof RESOURCE_STATUSES)[number];

export const LearningResource = Type.Object(
  {
    id: Type.Integer(),
    session_id: Type.Integer({ description: 'The training session the material belongs to.' }),
    title: Type.String(),
    type: StringEnum(RESOURCE_TYPES, { description: '`link` and `file` point at `url`; `text` carries its content in `body`.' }),
    url: Nullable(Type.String({ description: 'Where a link or a file is.' })),
    body: Nullable(Type.String({ description: 'The text of a `text` resource.' })),
    status: StringEnum(RESOURCE_STATUSES, { description: 'Always `published` through the API: draft resources are not shown.' }),
    published_at: Nullable(Timestamp('When the resource was published.')),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
  },
  { $id: 'LearningResource' },
);
export type LearningResource = Static<typeof LearningResource>;

export const RESOURCE_SORTS = ['id', 'title', 'published_at'] as const;
export type ResourceSort = (typeof RESOURCE_SORTS)[number];

export const ResourceListQuery = ListQuery({ sort: RESOURCE_SORTS });

/** `academy admin resources create`: a learning resource of a training session, a draft unless `status` says published. */
export const ResourceCreate = Type.Object(
  {
    session_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    title: Line(200),
    type: StringEnum(RESOURCE_TYPES),
    url: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          pattern: '^https?://\\S+$',
          'x-message': 'must be an http or https URL',
          description: 'Required for a `link` or a `file`.',
        }),
      ),
    ),
    body: Type.Optional(Nullable(Text(100_000, { description: 'Required for a `text` resource.' }))),
    // Null, like absence: a draft.
    status: Type.Optional(Nullable(StringEnum(RESOURCE_STATUSES))),
  },
  { additionalProperties: false },
);
export type ResourceCreate = Static<typeof ResourceCreate>;
