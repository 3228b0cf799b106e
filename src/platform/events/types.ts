/** Event types delivered as webhooks (spec §6 and CONTRACT.md), plus the platform's own domain events. */
export const WEBHOOK_EVENT_TYPES = [
  'enrollment.created',
  'enrollment.promoted',
  'enrollment.completed',
  'certificate.issued',
  'course.published',
  'course.archived',
  'course_application.imported',
  'export.completed',
  'job.failed',
  'alert.sent',
  'course_intake.registration_opened',
  'course_intake.completed',
  'course_intake.cancelled',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Domain events that stay inside the platform: written to the outbox, never delivered. */
export const INTERNAL_EVENT_TYPES = [
  'enrollment.cancelled',
  'document.stored',
  'document.updated',
  'document.archived',
  'document.deleted',
  'document.downloaded',
  'document.available',
  'report.requested',
  'report.generated',
  'report.stored',
  'report.failed',
  'report.expired',
] as const;

/** Every event type the modules may write: a name outside these lists fails the typecheck. */
export type EventType = WebhookEventType | (typeof INTERNAL_EVENT_TYPES)[number];

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** Version of the event envelope and payload shapes; bumped only for incompatible changes. */
export const EVENT_VERSION = '1';
