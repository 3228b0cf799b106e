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

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** Version of the event envelope and payload shapes; bumped only for incompatible changes. */
export const EVENT_VERSION = '1';
