import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** What an approval is about, as the console names and links it. */
export interface Subject {
  /** Its name: a course's title, a document's title or file name. */
  name: string;
  /** Its page on the console. */
  path: string;
  /** Its own state (a course's publication state, a document's status). */
  state: string;
}

/** The key of a subject in the map `read` answers. */
export const subjectKey = (type: string, id: number) => `${type}:${id}`;

/**
 * The subjects of a page of workflow instances, by `subjectKey`: one query per kind of subject
 * (courses, documents), whatever the page's size. A subject that is gone, or of a kind the console
 * has no page for, is absent (shown as its type and id).
 */
export function createSubjectReader(db: Kysely<DB>) {
  return {
    async read(items: readonly { subject_type: string | null; subject_id: number | null }[]): Promise<Map<string, Subject>> {
      const ids = (type: string) => [
        ...new Set(items.filter((item) => item.subject_type === type && item.subject_id !== null).map((item) => item.subject_id as number)),
      ];
      const courseIds = ids('course');
      const documentIds = ids('document');
      const [courses, documents] = await Promise.all([
        courseIds.length === 0
          ? []
          : db.selectFrom('courses').select(['id', 'slug', 'title', 'status']).where('id', 'in', courseIds).execute(),
        documentIds.length === 0
          ? []
          : db.selectFrom('documents').select(['id', 'title', 'filename', 'status']).where('id', 'in', documentIds).execute(),
      ]);
      const subjects = new Map<string, Subject>();
      for (const course of courses) {
        subjects.set(subjectKey('course', course.id), {
          name: course.title,
          path: `/console/courses/${course.slug}`,
          state: course.status,
        });
      }
      for (const document of documents) {
        subjects.set(subjectKey('document', document.id), {
          name: document.title ?? document.filename,
          path: `/console/documents/${document.id}`,
          state: document.status,
        });
      }
      return subjects;
    },
  };
}

export type SubjectReader = ReturnType<typeof createSubjectReader>;
