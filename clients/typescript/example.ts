/**
 * The typed client at work: list the published courses, read one, go through every student page by
 * page and item by item, and handle typed errors in both styles. Built to JavaScript with the client,
 * so any Node.js from 18 on runs it:
 *
 *   npm run build -w @academy/client
 *   ACADEMY_URL=http://127.0.0.1:3000 ACADEMY_TOKEN=$(cat data/demo-token) node clients/typescript/dist/example.js
 */
import { AcademyApiError, createAcademyClient, type Schemas, unwrap } from './index.ts';

const baseUrl = process.env.ACADEMY_URL ?? 'http://127.0.0.1:3000';
const token = process.env.ACADEMY_TOKEN;
if (!token) {
  console.error('Set ACADEMY_TOKEN to a token with the courses:read and students:read scopes.');
  process.exit(2);
}
// A 429 or 503 is retried after its Retry-After; `onRetry` says so.
const academy = createAcademyClient({
  baseUrl,
  token,
  retry: { onRetry: ({ request, delayMs }) => console.error(`retrying ${request.method} ${request.url} in ${delayMs} ms`) },
});

// 1. The published courses, cheapest first: openapi-fetch's `{ data, error }` style.
const courses = await academy.GET('/api/v1/courses', {
  params: { query: { active: 'true', sort: 'price', direction: 'asc', per_page: 100 } },
});
if (courses.error) throw new Error(`listing courses failed: ${courses.error.code}`);
console.log(`courses: ${courses.data.meta.total} published`);
for (const course of courses.data.data) console.log(`  ${course.code} ${course.title}: ${course.price} ${course.currency}`);

// 2. One course by its slug: `unwrap` gives the body, or throws an AcademyApiError.
const first = courses.data.data[0];
if (first) {
  const { data: course }: { data: Schemas['Course'] } = await unwrap(
    academy.GET('/api/v1/courses/{course}', { params: { path: { course: first.slug } } }),
  );
  console.log(`course: ${course.slug} "${course.title}" is ${course.status} since ${course.published_at}`);
}

// 3. Every student: `pages` follows the Link header's rel="next" page by page, `paginate` item by item.
let pages = 0;
let total = 0;
for await (const { data } of academy.pages('/api/v1/students', { params: { query: { per_page: 25 } } })) {
  pages += 1;
  total = data.meta.total;
}
const ids = new Set<number>();
for await (const student of academy.paginate('/api/v1/students', { params: { query: { per_page: 25 } } })) ids.add(student.id);
console.log(`students: ${ids.size} of ${total} in ${pages} pages`);

// 4. Typed errors. `{ data, error }`: `error.code` is the union of the codes the response documents.
const missing = await academy.GET('/api/v1/students/{student}', { params: { path: { student: 2147483647 } } });
if (missing.error) {
  const code: 'not_found' | 'unauthenticated' | 'insufficient_scope' | 'rate_limited' | 'validation_failed' = missing.error.code;
  console.log(`error: ${missing.response.status} ${code}: ${missing.error.message}`);
}
// Thrown: an AcademyApiError with the status, code, field messages, request id and where the code is explained.
try {
  await unwrap(academy.GET('/api/v1/courses', { params: { query: { per_page: 0 } } }));
} catch (error) {
  if (!(error instanceof AcademyApiError)) throw error;
  const fields = Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  console.log(`error: ${error.status} ${error.code}: ${fields.join('; ')} (see ${error.helpUrl})`);
}
