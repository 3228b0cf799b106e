import type { WebhookEventType } from '../../platform/events/types.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import type { CourseState } from './schemas.ts';

/**
 * The course publication workflow: draft → review → approved (or back to draft) → published →
 * archived, which is final. Publishing and archiving are domain events (`course.published`,
 * `course.archived`).
 */
export const courseLifecycle = defineLifecycle<CourseState, 'submit' | 'approve' | 'reject' | 'publish' | 'archive'>({
  table: 'courses',
  moves: {
    submit: { from: ['draft'], to: 'review' },
    approve: { from: ['review'], to: 'approved' },
    reject: { from: ['review'], to: 'draft' },
    publish: { from: ['approved'], to: 'published' },
    archive: { from: ['published'], to: 'archived' },
  },
});

/** The event each move writes, where it writes one. */
export const COURSE_EVENTS: Partial<Record<keyof typeof courseLifecycle.moves, WebhookEventType>> = {
  publish: 'course.published',
  archive: 'course.archived',
};
