import { NotFoundError } from '../../platform/errors.ts';
import type { SessionRepository } from './repository.ts';

/**
 * The session `id` of the course `slug`, for the resources nested under it (assessments, learning
 * resources, meetings): a missing session, or one of another course, is the same 404.
 */
export async function sessionInCourse(sessions: SessionRepository, slug: string, id: number) {
  const row = await sessions.findInCourse(slug, id);
  if (!row) throw new NotFoundError();
  return row;
}
