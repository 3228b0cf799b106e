/**
 * The typed client at work: list the published courses, read one, page through every student by
 * following the `Link` header's `rel="next"`, and handle typed errors.
 *
 *   ACADEMY_URL=http://127.0.0.1:3000 ACADEMY_TOKEN=$(cat data/demo-token) node clients/typescript/example.ts
 */
import { createAcademyClient, nextLink, type Schemas } from './index.ts';

const baseUrl = process.env.ACADEMY_URL ?? 'http://127.0.0.1:3000';
const token = process.env.ACADEMY_TOKEN;
if (!token) {
  console.error('Set ACADEMY_TOKEN to a token with the courses:read and students:read scopes.');
  process.exit(2);
}
const academy = createAcademyClient({ baseUrl, token });

// 1. The published courses, cheapest first.
const courses = await academy.GET('/api/v1/courses', {
  params: { query: { active: 'true', sort: 'price', direction: 'asc', per_page: 100 } },
});
if (courses.error) throw new Error(`listing courses failed: ${courses.error.code}`);
console.log(`courses: ${courses.data.meta.total} published`);
for (const course of courses.data.data) console.log(`  ${course.code} ${course.title}: ${course.price} ${course.currency}`);

// 2. One course by its slug.
const first = courses.data.data[0];
if (first) {
  const { data, error } = await academy.GET('/api/v1/courses/{course}', { params: { path: { course: first.slug } } });
  if (error) throw new Error(`reading ${first.slug} failed: ${error.code}`);
  const course: Schemas['Course'] = data.data;
  console.log(`course: ${course.slug} "${course.title}" is ${course.status} since ${course.published_at}`);
}

// 3. Every student, page by page: the Link header's rel="next" is the cursor.
let query: { page?: number; per_page?: number } = { per_page: 25 };
let pages = 0;
let seen = 0;
let total = 0;
for (;;) {
  const { data, error, response } = await academy.GET('/api/v1/students', { params: { query } });
  if (error) throw new Error(`listing students failed: ${error.code}`);
  pages += 1;
  seen += data.data.length;
  total = data.meta.total;
  const next = nextLink(response.headers.get('link'));
  if (!next) break;
  const params = new URL(next, baseUrl).searchParams;
  query = { page: Number(params.get('page')), per_page: Number(params.get('per_page')) };
}
console.log(`students: ${seen} of ${total} in ${pages} pages`);

// 4. Typed errors: `error.code` is the union of the codes the response documents.
const missing = await academy.GET('/api/v1/students/{student}', { params: { path: { student: 2147483647 } } });
if (missing.error) {
  const code: 'not_found' | 'unauthenticated' | 'insufficient_scope' | 'rate_limited' | 'validation_failed' = missing.error.code;
  console.log(`error: ${missing.response.status} ${code}: ${missing.error.message}`);
}
const invalid = await academy.GET('/api/v1/courses', { params: { query: { per_page: 0 } } });
if (invalid.error?.code === 'validation_failed') {
  const fields = Object.entries(invalid.error.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  console.log(`error: ${invalid.response.status} ${invalid.error.code}: ${fields.join('; ')}`);
}
