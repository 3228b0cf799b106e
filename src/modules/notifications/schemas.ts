import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';

/** One type per move of the staff lifecycle (see src/modules/users/lifecycle.ts), and the password-reset link. */
export const NOTIFICATION_TYPES = ['invitation', 'activation', 'suspension', 'reactivation', 'archival', 'password_reset'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_STATUSES = ['queued', 'sent', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const Notification = Type.Object(
  {
    id: Type.Integer(),
    type: StringEnum(NOTIFICATION_TYPES, {
      description:
        'The lifecycle move it tells the user about: `invitation` (draft → invited; carries the acceptance link), `activation` ' +
        '(invited → active), `suspension`, `reactivation`, `archival`; or `password_reset` (a one-time link to set a new ' +
        'password, asked for on the console’s sign-in page; valid 30 minutes).',
    }),
    status: StringEnum(NOTIFICATION_STATUSES, {
      description:
        'Delivery: `queued` (waiting for its next attempt), `sent` (the mail server accepted it), `failed` (every attempt failed, ' +
        'or the server refused the recipient for good; `last_error` says why).',
    }),
    user_id: Nullable(Type.Integer({ description: 'The staff user it is about (GET /users/{user}).' })),
    recipient: Type.String({ description: 'The address it is sent to: the user’s email when the move was made.' }),
    subject: Type.String({ description: 'In the organization’s name and locale.' }),
    attempts: Type.Integer({ description: 'Delivery attempts made so far.' }),
    max_attempts: Type.Integer({ description: 'Attempts before the notification fails.' }),
    last_error: Nullable(Type.String({ description: 'Why the last attempt failed; null once sent.' })),
    sent_at: Nullable(Timestamp('When the mail server accepted it.')),
    failed_at: Nullable(Timestamp('When delivery was given up.')),
    created_at: Timestamp('When the move that caused it was made.'),
    updated_at: Timestamp('Last change (an attempt, the outcome).'),
  },
  { $id: 'Notification' },
);
export type Notification = Static<typeof Notification>;

export const NOTIFICATION_SORTS = ['id', 'created_at', 'updated_at'] as const;
export type NotificationSort = (typeof NOTIFICATION_SORTS)[number];

export const NotificationListQuery = ListQuery({
  sort: NOTIFICATION_SORTS,
  filters: {
    type: Type.Optional(StringEnum(NOTIFICATION_TYPES, { description: 'Only notifications of this type.' })),
    status: Type.Optional(StringEnum(NOTIFICATION_STATUSES, { description: 'Only notifications in this delivery status.' })),
    user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only notifications about this user.' })),
  },
});
