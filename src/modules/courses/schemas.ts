import { type Static, Type } from 'typebox';
import { BooleanFilter, ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { Line, Text } from '../../platform/validation.ts';

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

/** A course's slug: lowercase letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** `academy admin courses create`: a new course, in `draft`. */
export const CourseCreate = Type.Object(
  {
    slug: Type.String({
      maxLength: 100,
      pattern: SLUG_PATTERN,
      'x-message': 'must be lowercase letters and digits in words joined by single hyphens, e.g. "project-management-101"',
    }),
    title: Line(200),
    code: Type.String({
      maxLength: 50,
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
      'x-message': 'must be letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "PM-101"',
    }),
    // The currency's minor-unit digits are checked by the service, which knows the currency.
    price: Type.String({
      maxLength: 20,
      pattern: '^[0-9]{1,12}(\\.[0-9]+)?$',
      'x-message': 'must be a non-negative decimal number as a string, e.g. "450.00"',
    }),
    currency: Type.String({ format: 'currency' }),
    language: Type.String({ format: 'locale', maxLength: 35, description: 'Stored in its canonical form (`en-gb` becomes `en-GB`).' }),
    description: Type.Optional(Nullable(Text(10_000))),
  },
  { additionalProperties: false },
);
export type CourseCreate = Static<typeof CourseCreate>;

/**
 * A course's own fields as the console's edit form saves them (all given, as the form shows them):
 * everything but the slug and the code, which name the course elsewhere (addresses, documents).
 */
export const CourseUpdate = Type.Object(
  {
    title: CourseCreate.properties.title,
    price: CourseCreate.properties.price,
    currency: CourseCreate.properties.currency,
    language: CourseCreate.properties.language,
    description: CourseCreate.properties.description,
  },
  { additionalProperties: false },
);
export type CourseUpdate = Static<typeof CourseUpdate>;

/** `academy admin courses transition`: the state to move to. */
export const CourseTransition = Type.Object({ to_state: StringEnum(COURSE_STATES) }, { additionalProperties: false });
export type CourseTransition = Static<typeof CourseTransition>;
