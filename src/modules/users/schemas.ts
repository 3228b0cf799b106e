import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { PERMISSION_NAMES, ROLE_NAMES } from '../../platform/permissions.ts';
import { Line } from '../../platform/validation.ts';

/** The staff lifecycle's states (see lifecycle.ts). */
export const USER_STATES = ['draft', 'invited', 'active', 'suspended', 'archived'] as const;
export type UserState = (typeof USER_STATES)[number];

/**
 * A staff user (an administrator of the platform). Students are users too (one id space), but never
 * appear here: a student's id is a 404.
 */
export const User = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'Full name.' }),
    // Not `format: email`: addresses are checked loosely (src/platform/email.ts), and some that mail
    // servers deliver to, such as `taro.@example.jp`, do not match that format.
    email: Type.String({
      description:
        'Stored trimmed, lowercased and NFC-normalised; unique in that form across every user, students included. Not always ' +
        'of the strict `email` format (e.g. `taro.@example.jp`): see `UserCreate.email` for the rules.',
    }),
    job_title: Nullable(Type.String()),
    status: StringEnum(USER_STATES, {
      description:
        'Lifecycle: `draft` (created, nothing sent) → `invited` (invitation emailed) → `active` (accepted) ⇄ `suspended`; ' +
        '`archived` from any other state, final.',
    }),
    roles: Type.Array(StringEnum(ROLE_NAMES), {
      description:
        'Roles held (`administrator`, `registrar`, `coordinator`, `approver`, `viewer`), each a set of permissions. Read-only: ' +
        'granted by a holder of `users.manage` (`academy admin users grant`, the console).',
    }),
    permissions: Type.Array(StringEnum(PERMISSION_NAMES), {
      description: 'Permissions granted directly, beside those of the roles. Read-only, granted as `roles` are.',
    }),
    effective_permissions: Type.Array(StringEnum(PERMISSION_NAMES), {
      description:
        'What the user may change: the permissions of their roles and those granted directly, sorted. A token that acts for ' +
        'the user may change only what these allow, whatever its scopes (a 403 `permission_denied` otherwise).',
    }),
    invited_at: Nullable(Timestamp('When the user was invited.')),
    activated_at: Nullable(Timestamp('When the user first became active (accepted the invitation).')),
    suspended_at: Nullable(Timestamp('When the user was suspended; null unless `suspended`.')),
    archived_at: Nullable(Timestamp('When the user was archived.')),
    created_at: Timestamp('When the user was created.'),
    updated_at: Timestamp('Last change, lifecycle moves included.'),
  },
  { $id: 'User' },
);
export type User = Static<typeof User>;

/** A person's name as written (staff and students alike): one line, trimmed by the service. */
export const PersonName = Line(200, { description: 'Full name (one line).' });

/** A person's email as written (staff and students alike); the rules are those of src/platform/email.ts. */
export const PersonEmail = Type.String({
  format: 'email-address',
  description:
    'Trimmed, lowercased and NFC-normalised, then stored and compared in that form: unique across every user (staff and ' +
    'students), so another letter case or a decomposed `é` is the same address. One `@`, a dot in the domain, at most 254 ' +
    'characters. A 422 on `email`: control or invisible format characters (e.g. U+200B, U+200D, U+00AD), spaces, angle ' +
    'brackets, quotes (the apostrophe is allowed), fullwidth or other compatibility characters, or a trailing dot.',
});

const JobTitle = Nullable(Line(200, { description: 'One line; null for none.' }));

export const UserCreate = Type.Object(
  {
    name: PersonName,
    email: PersonEmail,
    job_title: Type.Optional(JobTitle),
  },
  { additionalProperties: false, $id: 'UserCreate' },
);
export type UserCreate = Static<typeof UserCreate>;

/** Permissions as the administration gives them: the set replaces the user's (repeats are dropped). */
const Permissions = Type.Array(StringEnum(PERMISSION_NAMES), { description: 'Permission names, e.g. ["courses.approve"]; [] for none.' });

/** Roles as the administration gives them: the set replaces the user's (repeats are dropped). */
const Roles = Type.Array(StringEnum(ROLE_NAMES), { description: 'Role names, e.g. ["registrar"]; [] for none.' });

/**
 * A staff user as the administration creates one (`academy admin users create`): the API's fields and
 * the permissions, which only the administration gives. Not part of the API.
 */
export const StaffCreate = Type.Object(
  { ...UserCreate.properties, roles: Type.Optional(Roles), permissions: Type.Optional(Permissions) },
  { additionalProperties: false },
);
export type StaffCreate = Static<typeof StaffCreate>;

export const UserPatch = Type.Object(
  {
    name: Type.Optional(PersonName),
    email: Type.Optional(PersonEmail),
    job_title: Type.Optional(JobTitle),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UserPatch' },
);
export type UserPatch = Static<typeof UserPatch>;

/** `academy admin users grant ID`: the user's new roles, permissions, or both (each given replaces the user's). */
export const UserGrant = Type.Object(
  { roles: Type.Optional(Roles), permissions: Type.Optional(Permissions) },
  { additionalProperties: false, minProperties: 1 },
);
export type UserGrant = Static<typeof UserGrant>;

export const USER_SORTS = ['id', 'name', 'email', 'created_at', 'updated_at'] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const UserListQuery = ListQuery({
  sort: USER_SORTS,
  filters: {
    status: Type.Optional(StringEnum(USER_STATES, { description: 'Only users in this lifecycle state.' })),
  },
});
