import { type Static, Type } from 'typebox';
import { BooleanFilter, ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';

/** The publication workflow's states (see lifecycle.ts). */
export const COURSE_STATES = ['draft', 'review', 'approved', 'published', 'archived'] as const;
export type CourseState = (typeof COURSE_STATES)[number];

export const Course = Type.Object(
  {
    id: Type.Integer(),
    slug: Type.String({ description: 'Identifies the course in paths (`/courses/{slug}`): lowercase words joined by hyphens.' }),
    code: Type.String({ description: "The training provider's course code, e.g. `PM-101`." }),
    title: Type.String(),
    description: Nullable(Type.String()),
    price: Type.String({
      pattern: '^-?[0-9]+(\\.[0-9]+)?$',
      description: 'The price as a decimal string with the currency’s minor-unit digits, e.g. `"450.00"` (EUR) or `"45000"` (JPY).',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code of `price`.' }),
    language: Type.String({ description: 'BCP 47 tag of the language the course is taught in, e.g. `en` or `de-AT`.' }),
    status: StringEnum(COURSE_STATES, {
      description:
        'Publication state: `draft` → `review` → `approved` (or back to `draft`) → `published` → `archived` (final). ' +
        'Changed in the administration, not through the API. Only `published` courses are `active`.',
    }),
    published_at: Nullable(Timestamp('When the course was published.')),
    archived_at: Nullable(Timestamp('When the course was archived.')),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
  },
  { $id: 'Course' },
);
export type Course = Static<typeof Course>;

export const COURSE_SORTS = ['id', 'title', 'price', 'created_at', 'updated_at'] as const;
export type CourseSort = (typeof COURSE_SORTS)[number];

export const CourseListQuery = ListQuery({
  sort: COURSE_SORTS,
  filters: {
    active: BooleanFilter('Only published courses, or only courses in every other publication state (draft, review, approved, archived):'),
  },
});
