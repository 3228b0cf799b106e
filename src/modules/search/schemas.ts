import { type Static, Type } from 'typebox';
import { Ref } from '../../http/schemas.ts';

export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
/** A group's matches are counted up to this many (ADR 0025): a common text costs what a page shows, not what it matches. */
export const SEARCH_TOTAL_CAP = 1000;

export const SearchHit = Type.Object(
  {
    id: Type.Unsafe<number | string>({ type: ['integer', 'string'], description: 'The id of the item (a number for every group so far).' }),
    type: Type.String({ description: 'What the item is, singular: `student`, `course`, `session`, …' }),
    title: Type.String({ description: 'What to show for it: a name, a title, a number.' }),
    path: Type.String({ description: 'Its path from the server root, which a `GET` reads, e.g. `/api/v1/students/7`.' }),
  },
  {
    $id: 'SearchHit',
    additionalProperties: true,
    description: 'One item found. Each group adds details of its own (e.g. a student’s `email`, a session’s `course`).',
  },
);
export type SearchHit = Static<typeof SearchHit>;

export const SearchGroupResult = Type.Object(
  {
    total: Type.Integer({
      minimum: 0,
      maximum: SEARCH_TOTAL_CAP,
      description: `How many items of this group match, counted up to ${SEARCH_TOTAL_CAP}: exact when \`total_capped\` is false; ${SEARCH_TOTAL_CAP} when more match.`,
    }),
    total_capped: Type.Boolean({
      description: `True when more than ${SEARCH_TOTAL_CAP} items of this group match: \`total\` is then ${SEARCH_TOTAL_CAP}, and a longer \`q\` narrows them. False when \`total\` is exact.`,
    }),
    items: Type.Array(Ref(SearchHit), {
      description:
        'The first `limit` of them, by id (newest first for notifications, documents and reports), courses by title. Among every match, not only the counted ones.',
    }),
    restricted: Type.Boolean({
      description:
        'True when the token lacks a read scope the group needs: the group was not searched, and is empty (`total` 0, no ' +
        'items) whatever matches. False otherwise.',
    }),
  },
  { $id: 'SearchGroupResult' },
);
export type SearchGroupResult = Static<typeof SearchGroupResult>;

/** The answer: every group, each present even when nothing matched. */
export function SearchResults(groups: readonly string[]) {
  return Type.Object(Object.fromEntries(groups.map((name) => [name, Ref(SearchGroupResult)])), {
    $id: 'SearchResults',
    description:
      'Every group by name, always all of them; a group without matches, or `restricted` for the token, has `total` 0 and no items.',
  });
}

export const SearchQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'The text to find, case-insensitively, inside the fields each group searches. Blank (or absent): every group empty.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: SEARCH_MAX_LIMIT,
      default: SEARCH_DEFAULT_LIMIT,
      description: `Items per group, 1–${SEARCH_MAX_LIMIT} (default ${SEARCH_DEFAULT_LIMIT}); \`total\` counts them all, up to ${SEARCH_TOTAL_CAP}.`,
    }),
  ),
});
