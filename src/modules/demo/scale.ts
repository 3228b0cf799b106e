import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Insertable } from 'kysely';
import { openCopyingConnection } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { Platform } from '../../platform/platform.ts';
import { certificateNumber } from '../certificates/service.ts';
import type { CourseState } from '../courses/schemas.ts';
import type { SessionState } from '../sessions/schemas.ts';
import { createRandom, type Random } from './random.ts';
import {
  type BulkInsert,
  type BulkRepository,
  type BulkTable,
  createBulkRepository,
  createDemoRepository,
  type LoadStep,
} from './repository.ts';

/**
 * `academy seed --scale N`: a large academy for benchmarks, planned in compact arrays and streamed
 * row by row into large statements (src/modules/demo/repository.ts: BulkRepository.load) rather
 * than through the services (which would take hours for a million rows), but
 * holding to the same rules: session counters equal the enrolments they count, waitlists are
 * contiguous from 1 and only exist in full sessions with a waitlist, a student has at most one live
 * enrolment per session and an application to every course they enrol in, certificates belong to
 * confirmed enrolments completed as passed, and every state agrees with its dates (relative to the
 * day of seeding, like the demo). A generator with a fixed seed makes the data the same on every run
 * (except the certificates' verification tokens, which stay random: they are secrets). No domain
 * events are written: there is no history to announce.
 */

/** Bumped whenever the data a given N produces changes (the benchmark cache compares it). */
export const SCALE_SEED_VERSION = 3;

/** What N = 1 produces (about; enrolments and certificates follow from the capacities drawn). */
export const PER_SCALE = {
  students: 100_000,
  staff: 10_000,
  courses: 200,
  sessions: 5_000,
  enrolments: 500_000,
  certificates: 50_000,
} as const;
export const MAX_SCALE = 10;

const SEED = 0x5ca1e;
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Share of passed enrolments that have been issued their certificate (about 50,000 for N = 1). */
const CERTIFICATE_RATE = 0.25;
const REVOKED_RATE = 0.01;
const CANCELLED_RATE = 0.04;

const SUBJECTS: [string, string][] = [
  ['Project Management', 'PM'],
  ['Python Programming', 'PY'],
  ['Data Analysis', 'DA'],
  ['Leadership', 'LD'],
  ['First Aid at Work', 'FA'],
  ['Agile and Scrum', 'AG'],
  ['Cloud Computing', 'CC'],
  ['Cyber Security', 'CS'],
  ['Negotiation', 'NG'],
  ['Data Protection', 'DP'],
  ['Business Writing', 'BW'],
  ['Public Speaking', 'PS'],
  ['Excel', 'XL'],
  ['Machine Learning', 'ML'],
  ['Web Development', 'WD'],
  ['SQL and Databases', 'SQ'],
  ['Customer Service', 'CU'],
  ['Health and Safety', 'HS'],
  ['Fire Warden', 'FW'],
  ['Mental Health First Aid', 'MH'],
  ['Sales Techniques', 'SA'],
  ['Digital Marketing', 'DM'],
  ['Accounting Basics', 'AC'],
  ['Payroll', 'PR'],
  ['Procurement', 'PC'],
  ['Supply Chain', 'SC'],
  ['Lean Six Sigma', 'LS'],
  ['ITIL Service Management', 'IT'],
  ['Linux Administration', 'LX'],
  ['Network Fundamentals', 'NF'],
  ['UX Design', 'UX'],
  ['Time Management', 'TM'],
  ['Coaching and Mentoring', 'CM'],
  ['Conflict Resolution', 'CR'],
  ['Change Management', 'CH'],
  ['Business German', 'DE'],
  ['Business French', 'FR'],
  ['Spanish for Work', 'ES'],
  ['Forklift Operation', 'FO'],
  ['Food Hygiene', 'FH'],
];
const LEVELS = ['Fundamentals', 'Intermediate', 'Advanced', 'Masterclass', 'Bootcamp', 'Refresher'];
const LANGUAGES = ['en', 'en', 'en', 'en', 'en-GB', 'en-GB', 'de', 'fr', 'es', 'nl'];
const FIRST_NAMES = [
  'Amelia',
  'Oliver',
  'Isla',
  'Noah',
  'Ava',
  'Leo',
  'Mia',
  'Arthur',
  'Freya',
  'Oscar',
  'Zoë',
  'Ravi',
  'Chloé',
  'Mateo',
  'Aoife',
  'Kwame',
  'Sofia',
  'Jakub',
  'Mei',
  'Ibrahim',
  'Hannah',
  'Luca',
  'Nia',
  'Emre',
  'Grace',
  'Tomasz',
  'Inès',
  'Yusuf',
  'Elena',
  'Finn',
  'Amara',
  'Dmitri',
  'Priya',
  'Samuel',
  'Helen',
  'Daniel',
  'Aisha',
  'Jürgen',
  'Margaret',
  'Tom',
  'Lena',
  'Omar',
  'Chiara',
  'Kenji',
  'Fatima',
  'Lars',
  'Ana',
  'Wei',
  'Olga',
  'Diego',
  'Sara',
  'Henrik',
  'Maya',
  'Joseph',
  'Ngozi',
  'Pablo',
  'Eva',
  'Arjun',
  'Ruth',
  'Ivan',
];
const JOB_TITLES = ['Trainer', 'Course coordinator', 'Registrar', 'Programme manager', 'Assessor', 'Administrator'];
/** Staff statuses in turn: most are active. */
const STAFF_STATUSES = ['active', 'active', 'active', 'active', 'active', 'active', 'invited', 'draft', 'suspended', 'archived'];

const LAST_NAMES = [
  'Smith',
  'Patel',
  'Jones',
  'Müller',
  'Nowak',
  'Okoye',
  'Brown',
  'García',
  'Chen',
  'Kaur',
  'Murphy',
  'Yılmaz',
  'Evans',
  'Rossi',
  'Ahmed',
  'Dubois',
  'Taylor',
  'Kowalski',
  'Nguyen',
  'Walsh',
  'Silva',
  'Ibrahim',
  'Johansson',
  "O'Brien",
  'Osei',
  'Reyes',
  'Ward',
  'Okafor',
  'Lindqvist',
  'Hoffmann',
  'Rahman',
  'Natarajan',
  'Becker',
  'Fischer',
  'Novák',
  'Kim',
  'Sato',
  'Haddad',
  'Costa',
  'Moreau',
  'Jansen',
  'Popescu',
  'Horvat',
  'Andersen',
  'Virtanen',
  'Papadopoulos',
  'Kaya',
  'Mensah',
  'Abebe',
  'Mwangi',
  'Tanaka',
  'Lopez',
  'Wilson',
  'Clarke',
  'Hughes',
  'Byrne',
  'Schmidt',
  'Bianchi',
  'Svensson',
  'Kovács',
];
const INSTRUCTORS = [
  'Margaret Osei',
  'Daniel Reyes',
  'Priya Natarajan',
  'Tom Becker',
  'Helen Ward',
  'Samuel Okafor',
  'Grace Lindqvist',
  'Jürgen Hoffmann',
  'Aisha Rahman',
  'Carlos Mendes',
  'Ingrid Berg',
  'Kofi Boateng',
  'Leila Haddad',
  'Martin Novák',
  'Yuki Tanaka',
  'Ruth Abebe',
];

/** Enrolments per seat, drawn between these bounds: open sessions are often oversubscribed. */
const DEMAND: Partial<Record<SessionState, [number, number]>> = { open_for_registration: [0.3, 1.6], cancelled: [0.2, 0.8] };
const OUTCOME = { passed: 1, failed: 2, withdrawn: 3 } as const;

const STATUS = { confirmed: 0, waitlisted: 1, cancelled: 2 } as const;
const STATUS_NAMES = ['confirmed', 'waitlisted', 'cancelled'] as const;
const OUTCOME_NAMES = [null, 'passed', 'failed', 'withdrawn'] as const;
const CERTIFICATE = { valid: 1, revoked: 2 } as const;

interface CoursePlan {
  slug: string;
  code: string;
  title: string;
  description: string;
  priceMinor: number;
  language: string;
  state: CourseState;
  created: number;
  publishedAt: number | null;
  archivedAt: number | null;
  updated: number;
}

interface SessionPlan {
  course: number;
  name: string;
  state: SessionState;
  startsOn: number;
  endsOn: number;
  seats: number;
  waitlist: boolean;
  instructor: string;
  created: number;
  opens: number;
  closes: number;
  cancelledAt: number;
  confirmed: number;
  waitlisted: number;
  completed: number;
  updated: number;
}

export interface ScaleSummary {
  scale: number;
  version: number;
  students: number;
  staff: number;
  courses: number;
  sessions: number;
  applications: number;
  enrolments: number;
  confirmed: number;
  waitlisted: number;
  cancelled: number;
  certificates: number;
  revoked: number;
  /** Time spent writing (after planning). */
  seconds: number;
}

/** Rows written so far into a table, or, after the rows, the step that starts (its indexes put back, its statistics). */
export type ScaleProgress =
  | {
      /** The table being written, or `staff` for the staff users (written to `users` after the students). */
      table: BulkTable | 'staff';
      written: number;
      total: number;
    }
  | LoadStep;

export class ScaleRefusedError extends Error {}

/** Draws one key of `weights` in proportion to its weight. */
function weighted<K extends string>(random: Random, weights: Record<K, number>): K {
  const entries = Object.entries(weights) as [K, number][];
  let x = random.next() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [key, weight] of entries) {
    x -= weight;
    if (x < 0) return key;
  }
  return (entries[entries.length - 1] as [K, number])[0];
}

function kebab(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function ascii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
}

/** The days and hours of the plan, relative to the day of seeding. */
interface Timeline {
  now: number;
  /** Midnight (UTC) of the day of seeding. */
  today: number;
  /** `hour` o'clock (UTC), `days` days from today. */
  at(days: number, hour: number): number;
  /** The moment, or an hour ago when it would be later. */
  past(moment: number): number;
}

function timeline(now: number): Timeline {
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  return { now, today, at: (days, hour) => today + days * DAY + hour * HOUR, past: (moment) => Math.min(moment, now - HOUR) };
}

/** How many of each the plan holds for `scale` (a minimum of each, so that a tiny scale still has every case). */
function countsFor(scale: number) {
  return {
    students: Math.max(50, Math.round(PER_SCALE.students * scale)),
    staff: Math.max(5, Math.round(PER_SCALE.staff * scale)),
    courses: Math.max(5, Math.round(PER_SCALE.courses * scale)),
    sessions: Math.max(12, Math.round(PER_SCALE.sessions * scale)),
    enrolmentTarget: Math.round(PER_SCALE.enrolments * scale),
  };
}

type Counts = ReturnType<typeof countsFor>;

/**
 * Enrolments as columns (one typed array per field): five million rows without an object per row.
 * What follows from the order or the session is not kept: a session's enrolments are consecutive,
 * its waitlist numbered in their order; those of a cancelled session were cancelled with it; a
 * completed enrolment was completed at 17:00 on its session's last day, its certificate issued two
 * days later, and revoked 30 days after that.
 */
interface EnrolmentRows {
  count: number;
  user: Int32Array;
  session: Int32Array;
  status: Uint8Array;
  created: Float64Array;
  /** When the student cancelled, for each enrolment cancelled by its student, in order. */
  cancelledByStudent: number[];
  /** OUTCOME, for a completed enrolment (0 otherwise). */
  outcome: Uint8Array;
  /** CERTIFICATE, for a passed enrolment that was issued one (0 otherwise). */
  certificate: Uint8Array;
  certificates: number;
  revoked: number;
}

/**
 * The applications: an enrolment's student applied to its course two days before enrolling, once
 * however often they enrolled in it (at the earliest); each student who never enrolled applied to one
 * course. They are written student by student (`studentsApplications`).
 */
interface ApplicationRows {
  count: number;
  /** Per enrolment: 1 when it is the first of its student's enrolments in its course (it stands for the application). */
  first: Uint8Array;
  /**
   * When the application of such a first enrolment came before two days ahead of it (a later
   * enrolment in the same course was made earlier): the few exceptions, by enrolment.
   */
  earlier: Map<number, number>;
  /** Per student: the course applied to by a student who never enrolled (-1 for the others). */
  unenrolled: Int32Array;
  /** Per student: their latest application (the only one of a student who never enrolled). */
  latest: Float64Array;
  /** The earliest application of all. */
  earliest: number;
}

/** The whole data set for `scale`, decided in memory before anything is written (compact arrays for the big tables). */
export function planScale(scale: number, now: number) {
  if (!(scale > 0 && scale <= MAX_SCALE)) throw new Error(`The scale must be a number above 0 and at most ${MAX_SCALE}.`);
  const random = createRandom(SEED);
  const time = timeline(now);
  const counts = countsFor(scale);
  const courses = planCourses(random, counts.courses);
  const sessions = planSessions(random, time, courses, counts.sessions);
  dateCourses(random, time, courses, sessions);
  const demand = enrolmentDemand(random, time, sessions, counts);
  const enrolments = planEnrolments(random, time, sessions, demand, counts.students);
  const unenrolled = applyUnenrolled(random, time, courses, enrolments, counts.students);
  const applications = listApplications(sessions, enrolments, unenrolled);
  return {
    scale,
    now,
    today: time.today,
    studentCount: counts.students,
    staffCount: counts.staff,
    userCreated: signupTimes(courses, applications),
    courses,
    sessions,
    enrolments,
    applications,
  };
}

/** Courses: the first five in each publication state, the rest mostly published. */
function planCourses(random: Random, count: number): CoursePlan[] {
  const courses: CoursePlan[] = [];
  const slugs = new Set<string>();
  const fixedStates: CourseState[] = ['published', 'archived', 'approved', 'review', 'draft'];
  for (let i = 0; i < count; i++) {
    const [subject, prefix] = random.pick(SUBJECTS);
    const level = random.pick(LEVELS);
    const title = `${subject} ${level}`;
    let slug = kebab(title);
    for (let n = 2; slugs.has(slug); n++) slug = `${kebab(title)}-${n}`;
    slugs.add(slug);
    courses.push({
      slug,
      code: `${prefix}-${1000 + i}`,
      title,
      description: `${level} course in ${subject.toLowerCase()}: lectures, exercises and a final assessment.`,
      priceMinor: random.int(15, 150) * 1000,
      language: random.pick(LANGUAGES),
      state: fixedStates[i] ?? weighted(random, { published: 70, archived: 10, approved: 6, review: 6, draft: 8 }),
      created: 0,
      publishedAt: null,
      archivedAt: null,
      updated: 0,
    });
  }
  return courses;
}

/**
 * Sessions go to published courses, past ones to archived courses too, draft ones to approved courses;
 * the first six are one in each workflow state.
 */
function planSessions(random: Random, time: Timeline, courses: CoursePlan[], count: number): SessionPlan[] {
  const pool: number[] = [];
  for (const [index, course] of courses.entries()) {
    const share = { published: 10, archived: 6, approved: 1, review: 0, draft: 0 }[course.state];
    for (let k = 0; k < share; k++) pool.push(index);
  }
  const forcedStates: SessionState[] = ['draft', 'scheduled', 'open_for_registration', 'in_progress', 'completed', 'cancelled'];
  const sessions: SessionPlan[] = [];
  const perCourse = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const course = i < forcedStates.length ? 0 : (random.pick(pool) as number);
    const courseState = (courses[course] as CoursePlan).state;
    const state = i < forcedStates.length ? (forcedStates[i] as SessionState) : sessionState(random, courseState);
    const { startsOn, days } = sessionDays(random, state, courseState);
    const opens = time.at(startsOn - 45, 9);
    const closes = time.at(startsOn - 1, 18);
    const number = (perCourse.get(course) ?? 0) + 1;
    perCourse.set(course, number);
    sessions.push({
      course,
      name: `Cohort ${number}`,
      state,
      startsOn,
      endsOn: startsOn + days - 1,
      seats: random.int(30, 200),
      waitlist: random.chance(0.9),
      instructor: random.pick(INSTRUCTORS),
      created: Math.min(opens - 14 * DAY, time.now - 2 * DAY),
      opens,
      closes,
      cancelledAt: 0,
      confirmed: 0,
      waitlisted: 0,
      completed: 0,
      updated: 0,
    });
  }
  return sessions;
}

function sessionState(random: Random, courseState: CourseState): SessionState {
  if (courseState === 'approved') return 'draft';
  if (courseState === 'archived') return random.chance(0.9) ? 'completed' : 'cancelled';
  return weighted(random, { completed: 44, open_for_registration: 30, in_progress: 6, scheduled: 8, draft: 6, cancelled: 6 });
}

/** A session's first day (from today) and length, as its state requires: a completed one ended yesterday at the latest. */
function sessionDays(random: Random, state: SessionState, courseState: CourseState): { startsOn: number; days: number } {
  let startsOn: number;
  let days = random.int(1, 5);
  if (state === 'completed') startsOn = courseState === 'archived' ? random.int(-700, -100) : random.int(-700, -10);
  else if (state === 'in_progress') {
    startsOn = random.int(-4, 0);
    days = random.int(1 - startsOn, 5 - startsOn);
  } else if (state === 'open_for_registration') startsOn = random.int(3, 44);
  else if (state === 'scheduled') startsOn = random.int(50, 200);
  else if (state === 'draft') startsOn = random.int(30, 300);
  else startsOn = courseState === 'archived' ? random.int(-300, -60) : random.int(-300, 120);
  if (state === 'completed') days = Math.min(days, -1 - startsOn);
  return { startsOn, days };
}

/** When the session's workflow last moved (its updated_at unless an enrolment changed later). */
function lastMove(time: Timeline, session: SessionPlan): number {
  return {
    draft: session.created,
    scheduled: session.created + HOUR,
    open_for_registration: session.opens,
    in_progress: time.at(session.startsOn, 8),
    completed: time.at(session.endsOn + 1, 7),
    cancelled: session.cancelledAt,
  }[session.state];
}

/** Course history: created well before its first session, published, archived after its last. */
function dateCourses(random: Random, time: Timeline, courses: CoursePlan[], sessions: SessionPlan[]): void {
  const firstSession = new Map<number, number>();
  const lastEnd = new Map<number, number>();
  for (const s of sessions) {
    firstSession.set(s.course, Math.min(firstSession.get(s.course) ?? Number.POSITIVE_INFINITY, s.created));
    lastEnd.set(s.course, Math.max(lastEnd.get(s.course) ?? 0, time.at(s.endsOn + 1, 7)));
  }
  for (const [index, course] of courses.entries()) {
    const first = firstSession.get(index);
    course.created = Math.min(time.now - 60 * DAY - random.int(0, 300) * DAY, (first ?? Number.POSITIVE_INFINITY) - 30 * DAY);
    const steps = { draft: 0, review: 1, approved: 2, published: 3, archived: 3 }[course.state];
    course.updated = course.created + steps * 2 * DAY;
    if (steps === 3) course.publishedAt = course.updated;
    if (course.state === 'archived') {
      course.archivedAt = time.past(Math.max((course.publishedAt as number) + DAY, (lastEnd.get(index) ?? 0) + 20 * DAY));
      course.updated = course.archivedAt;
    }
  }
}

/**
 * How many enrol where, and when they may: in proportion to seats and a demand drawn per session,
 * summing to the target; within each session's registration window.
 */
function enrolmentDemand(random: Random, time: Timeline, sessions: SessionPlan[], counts: Counts) {
  const windows = sessions.map((s) => {
    const takes = s.state !== 'draft' && s.state !== 'scheduled';
    const end = s.state === 'cancelled' ? Math.min(s.closes, time.now - DAY) : Math.min(s.closes, time.now - HOUR);
    const start = s.opens + HOUR;
    const [low, high] = DEMAND[s.state] ?? [0.6, 1.1];
    return { start, end, weight: takes && end > start ? s.seats * (low + random.next() * (high - low)) : 0 };
  });
  const students = counts.students;
  // Sessions past registration hold no waitlist: at most their seats (and the few who cancelled).
  const caps = sessions.map((s) =>
    Math.min(students, s.state === 'open_for_registration' && s.waitlist ? students : Math.floor(s.seats * (1 + CANCELLED_RATE))),
  );
  const wantedAt = (factor: number) => windows.map((w, i) => Math.min(caps[i] as number, Math.round(factor * w.weight)));
  const sum = (numbers: number[]) => numbers.reduce((total, n) => total + n, 0);
  // The factor that makes the capped demands add up to the target, by bisection.
  let [low, high] = [0, 64];
  for (let step = 0; step < 50; step++) {
    const middle = (low + high) / 2;
    if (sum(wantedAt(middle)) < counts.enrolmentTarget) low = middle;
    else high = middle;
  }
  const wanted = wantedAt(high);
  return { windows, wanted, capacity: sum(wanted) };
}

/** Every session's enrolments, completions and certificates; each enrolment with its application before it. */
function planEnrolments(
  random: Random,
  time: Timeline,
  sessions: SessionPlan[],
  demand: ReturnType<typeof enrolmentDemand>,
  studentCount: number,
): EnrolmentRows {
  const capacity = demand.capacity;
  const enrolments: EnrolmentRows = {
    count: 0,
    user: new Int32Array(capacity),
    session: new Int32Array(capacity),
    status: new Uint8Array(capacity),
    created: new Float64Array(capacity),
    cancelledByStudent: [],
    outcome: new Uint8Array(capacity),
    certificate: new Uint8Array(capacity),
    certificates: 0,
    revoked: 0,
  };
  // Per student, the last session (its index + 1) that chose them: a student enrols in a session once.
  const chosenBy = new Int32Array(studentCount);
  for (const [index, session] of sessions.entries()) {
    const window = demand.windows[index] as { start: number; end: number };
    enrolSession(random, time, { session, index, window, wanted: demand.wanted[index] as number }, chosenBy, enrolments);
  }
  return enrolments;
}

/**
 * One session's enrolments, spread over its registration window: confirmed up to its seats, then
 * waitlisted while it takes more, a few cancelled; completed (and some certified) when it is.
 */
function enrolSession(
  random: Random,
  time: Timeline,
  { session, index, window, wanted: n }: { session: SessionPlan; index: number; window: { start: number; end: number }; wanted: number },
  chosenBy: Int32Array,
  enrolments: EnrolmentRows,
): void {
  const studentCount = chosenBy.length;
  const { start, end } = window;
  session.cancelledAt = session.state === 'cancelled' ? time.past(end + DAY) : 0;
  let updated = session.created;
  if (n === 0) {
    session.updated = time.past(Math.max(updated, lastMove(time, session)));
    return;
  }
  let chosen = 0;
  const span = end - start;
  const liveCap = session.state === 'open_for_registration' && session.waitlist ? Number.POSITIVE_INFINITY : session.seats;
  for (let k = 0; k < n && chosen < studentCount; k++) {
    let student = random.int(0, studentCount - 1);
    while (chosenBy[student] === index + 1) student = random.int(0, studentCount - 1);
    chosenBy[student] = index + 1;
    chosen += 1;
    const created = Math.floor(start + ((k + random.next()) / n) * span);
    let status: number;
    let cancelledAt = 0;
    if (session.state === 'cancelled') {
      status = STATUS.cancelled;
      cancelledAt = session.cancelledAt;
    } else if (random.chance(CANCELLED_RATE)) {
      status = STATUS.cancelled;
      cancelledAt = Math.floor(created + random.next() * (end - created));
    } else if (session.confirmed < session.seats) status = STATUS.confirmed;
    else if (session.confirmed + session.waitlisted < liveCap) status = STATUS.waitlisted;
    else continue;
    const e = enrolments.count++;
    enrolments.user[e] = student;
    enrolments.session[e] = index;
    enrolments.status[e] = status;
    enrolments.created[e] = created;
    if (cancelledAt && session.state !== 'cancelled') enrolments.cancelledByStudent.push(cancelledAt);
    updated = Math.max(updated, created, cancelledAt);
    if (status === STATUS.confirmed) session.confirmed += 1;
    if (status === STATUS.waitlisted) session.waitlisted += 1;
    if (status === STATUS.confirmed && session.state === 'completed') completeEnrolment(random, session, e, enrolments);
  }
  session.updated = time.past(Math.max(updated, lastMove(time, session)));
}

/** A confirmed enrolment of a completed session: its outcome, and for some who passed a certificate. */
function completeEnrolment(random: Random, session: SessionPlan, e: number, enrolments: EnrolmentRows): void {
  const outcome = weighted(random, { passed: 78, failed: 14, withdrawn: 8 });
  enrolments.outcome[e] = OUTCOME[outcome];
  session.completed += 1;
  if (outcome === 'passed' && random.chance(CERTIFICATE_RATE)) {
    const revoked = random.chance(REVOKED_RATE);
    enrolments.certificate[e] = revoked ? CERTIFICATE.revoked : CERTIFICATE.valid;
    enrolments.certificates += 1;
    if (revoked) enrolments.revoked += 1;
  }
}

/**
 * Every student has applied somewhere: those who never enrolled, to a published course. Per student,
 * that course (-1 for those who enrolled) and when they applied.
 */
function applyUnenrolled(random: Random, time: Timeline, courses: CoursePlan[], enrolments: EnrolmentRows, studentCount: number) {
  const published = courses.flatMap((c, i) => (c.state === 'published' ? [i] : []));
  const enrolled = new Uint8Array(studentCount);
  for (let e = 0; e < enrolments.count; e++) enrolled[enrolments.user[e] as number] = 1;
  const course = new Int32Array(studentCount).fill(-1);
  const moment = new Float64Array(studentCount);
  for (let student = 0; student < studentCount; student++) {
    if (!enrolled[student]) {
      course[student] = random.pick(published);
      const opened = (courses[course[student] as number] as CoursePlan).publishedAt as number;
      moment[student] = time.past(Math.max(opened + DAY, time.now - random.int(1, 400) * DAY));
    }
  }
  return { course, moment };
}

/**
 * The applications (ApplicationRows): each student's enrolments are gathered (a counting sort by
 * student, in their order), and of those in the same course the first stands for all, with the
 * earliest moment.
 */
function listApplications(
  sessions: SessionPlan[],
  enrolments: EnrolmentRows,
  unenrolled: { course: Int32Array; moment: Float64Array },
): ApplicationRows {
  const studentCount = unenrolled.course.length;
  const { user, session, created } = enrolments;
  const courseOf = (e: number) => (sessions[session[e] as number] as SessionPlan).course;
  const starts = new Int32Array(studentCount + 1);
  for (let e = 0; e < enrolments.count; e++) (starts[(user[e] as number) + 1] as number)++;
  for (let student = 0; student < studentCount; student++)
    starts[student + 1] = (starts[student + 1] as number) + (starts[student] as number);
  const order = new Int32Array(enrolments.count);
  const filled = starts.slice(0, studentCount);
  for (let e = 0; e < enrolments.count; e++) order[(filled[user[e] as number] as number)++] = e;

  const first = new Uint8Array(enrolments.count);
  const earlier = new Map<number, number>();
  const applied = (e: number) => earlier.get(e) ?? (created[e] as number) - 2 * DAY;
  // A student who never enrolled made one application: the latest is that one.
  const latest = unenrolled.moment;
  let count = 0;
  let earliest = Number.POSITIVE_INFINITY;
  for (let student = 0; student < studentCount; student++) {
    const from = starts[student] as number;
    const to = starts[student + 1] as number;
    for (let i = from; i < to; i++) {
      const e = order[i] as number;
      const course = courseOf(e);
      let j = from;
      while (j < i && courseOf(order[j] as number) !== course) j++;
      if (j === i) first[e] = 1;
      else {
        const moment = (created[e] as number) - 2 * DAY;
        if (moment < applied(order[j] as number)) earlier.set(order[j] as number, moment);
      }
    }
    for (let i = from; i < to; i++) {
      const e = order[i] as number;
      if (first[e]) {
        count += 1;
        latest[student] = Math.max(latest[student] as number, applied(e));
        earliest = Math.min(earliest, applied(e));
      }
    }
    if ((unenrolled.course[student] as number) >= 0) {
      count += 1;
      earliest = Math.min(earliest, latest[student] as number);
    }
  }
  return { count, first, earlier, unenrolled: unenrolled.course, latest, earliest };
}

/** When each student signed up: spread over 150 days, before anything they applied to. */
function signupTimes(courses: CoursePlan[], applications: ApplicationRows): (student: number) => number {
  const firstCourse = Math.min(...courses.map((c) => c.created));
  const studentCount = applications.latest.length;
  // Students signed up before anything they applied to.
  const signupStart = Math.min(firstCourse, applications.earliest) - 200 * DAY;
  const signupSpan = 150 * DAY;
  return (student: number) => Math.floor(signupStart + (student / studentCount) * signupSpan);
}

export type ScalePlan = ReturnType<typeof planScale>;

/**
 * `new Date(moment).toISOString()` ten times faster (which matters for tens of millions of them): the
 * date's part is kept for each day, the time's is written out.
 */
const iso = (() => {
  const days = new Map<number, string>();
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  return (moment: number): string => {
    const day = Math.floor(moment / DAY);
    let date = days.get(day);
    if (date === undefined) {
      date = new Date(day * DAY).toISOString().slice(0, 11);
      days.set(day, date);
    }
    const ms = moment - day * DAY;
    const millis = ms % 1000;
    return `${date}${two(Math.floor(ms / HOUR))}:${two(Math.floor(ms / 60_000) % 60)}:${two(Math.floor(ms / 1000) % 60)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
  };
})();
const isoOrNull = (moment: number) => (moment ? iso(moment) : null);
const dateOf = (today: number, days: number) => new Date(today + days * DAY).toISOString().slice(0, 10);

/** Rows written between two full garbage collections (`garbageCollector`): each costs a few hundred milliseconds. */
const ROWS_PER_COLLECTION = 1_000_000;

/**
 * A full garbage collection, asked for. V8 collects its old generation when it reaches a limit it
 * sets at about three times what was live at the last collection, and the load's garbage (each
 * statement's rows, a little of which outlives the young generation) filled it: the heap reached
 * 195 MiB where 54 MiB were live, and the seed at scale 10 peaked at 508 MiB; collected every
 * million rows, 471 MiB (every 500,000: 429–443 MiB, twice the collections; docs/performance.md).
 * V8's `gc` is reached as Jest's leak detector does, by exposing it at run time; the seed is the
 * only caller.
 */
function garbageCollector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/** Writes a plan into an empty catalogue, table after table, row after row (nothing is held but the plan). */
async function write(bulk: BulkRepository, plan: ScalePlan, onProgress: (progress: ScaleProgress) => void) {
  const ids = await bulk.maxIds();
  // The statistics are the last step, after the load's own.
  let steps = 1;
  await bulk.load(
    async (insert) => {
      await writeTables(insert, ids, plan, onProgress);
      // The plan's arrays (about 110 MB at scale 10) are freed before the indexes are built again,
      // which is when the load needs the most memory: the arrays' memory goes back at once, where
      // dropping the references would wait for a collection that a process busy in SQLite never runs.
      release(plan);
    },
    (step) => {
      steps = step.steps + 1;
      onProgress({ ...step, steps });
    },
  );
  onProgress({ step: 'statistics', done: steps - 1, steps });
  await bulk.finish();
}

/** Frees the memory of the plan's large arrays (they are empty afterwards). */
function release(plan: ScalePlan): void {
  const { enrolments: e, applications: a } = plan;
  for (const array of [e.user, e.session, e.status, e.created, e.outcome, e.certificate, a.first, a.unenrolled, a.latest]) {
    (array.buffer as ArrayBuffer).transfer(0);
  }
}

/** What the summary says of a plan, counted before it is written (writing frees its arrays). */
function summarize(plan: ScalePlan) {
  const { enrolments, applications } = plan;
  let confirmed = 0;
  let waitlisted = 0;
  for (let e = 0; e < enrolments.count; e++) {
    if (enrolments.status[e] === STATUS.confirmed) confirmed += 1;
    else if (enrolments.status[e] === STATUS.waitlisted) waitlisted += 1;
  }
  return {
    students: plan.studentCount,
    staff: plan.staffCount,
    courses: plan.courses.length,
    sessions: plan.sessions.length,
    applications: applications.count,
    enrolments: enrolments.count,
    confirmed,
    waitlisted,
    cancelled: enrolments.count - confirmed - waitlisted,
    certificates: enrolments.certificates,
    revoked: enrolments.revoked,
  };
}

async function writeTables(
  insert: BulkInsert,
  ids: Record<BulkTable, number>,
  plan: ScalePlan,
  onProgress: (progress: ScaleProgress) => void,
): Promise<void> {
  const userId = (student: number) => ids.users + student + 1;
  const courseId = (course: number) => ids.courses + course + 1;
  const sessionId = (session: number) => ids.training_sessions + session + 1;
  const enrolmentId = (enrolment: number) => ids.enrolments + enrolment + 1;
  const { enrolments, applications, sessions, courses, today } = plan;
  const sessionOf = (e: number) => sessions[enrolments.session[e] as number] as SessionPlan;

  const table = <T extends BulkTable>(name: T, total: number, rows: Iterable<Insertable<DB[T]>>, label: BulkTable | 'staff' = name) =>
    insert(name, rows, (written) => onProgress({ table: label, written, total }));

  // Names come from a stream of their own, so that they do not depend on the plan's draws.
  const names = createRandom(SEED + 1);
  await table(
    'users',
    plan.studentCount,
    (function* () {
      for (let student = 0; student < plan.studentCount; student++) {
        const first = names.pick(FIRST_NAMES);
        const last = names.pick(LAST_NAMES);
        const created = plan.userCreated(student);
        yield {
          id: userId(student),
          name: `${first} ${last}`,
          email: `${ascii(first)}.${ascii(last)}.${student + 1}@learners.example`,
          status: 'active',
          is_admin: false,
          // Every student of the plan has an application (written below): a student from the start.
          is_student: true,
          permissions: '[]',
          email_verified: names.chance(0.7),
          job_title: null,
          created_at: iso(created),
          updated_at: iso(Math.max(created, applications.latest[student] as number)),
        };
      }
    })(),
  );
  await table(
    'courses',
    courses.length,
    courses.map((c, i) => ({
      id: courseId(i),
      slug: c.slug,
      code: c.code,
      title: c.title,
      description: c.description,
      price_minor: c.priceMinor,
      currency: 'EUR',
      language: c.language,
      status: c.state,
      published_at: isoOrNull(c.publishedAt ?? 0),
      archived_at: isoOrNull(c.archivedAt ?? 0),
      created_at: iso(c.created),
      updated_at: iso(c.updated),
    })),
  );
  await table(
    'training_sessions',
    sessions.length,
    sessions.map((s, i) => ({
      id: sessionId(i),
      course_id: courseId(s.course),
      name: s.name,
      max_participants: s.seats,
      waitlist_enabled: s.waitlist,
      registration_opens_at: iso(s.opens),
      registration_closes_at: iso(s.closes),
      starts_on: dateOf(today, s.startsOn),
      ends_on: dateOf(today, s.endsOn),
      instructor_name: s.instructor,
      workflow_state: s.state,
      confirmed_count: s.confirmed,
      waitlisted_count: s.waitlisted,
      completed_count: s.completed,
      created_at: iso(s.created),
      updated_at: iso(s.updated),
    })),
  );
  const time = timeline(plan.now);
  await table(
    'enrolments',
    enrolments.count,
    (function* () {
      let cancellations = 0;
      let position = 0;
      for (let e = 0; e < enrolments.count; e++) {
        const status = enrolments.status[e] as number;
        const created = enrolments.created[e] as number;
        const outcome = enrolments.outcome[e] as number;
        const session = sessionOf(e);
        if (e === 0 || enrolments.session[e] !== enrolments.session[e - 1]) position = 0;
        if (status === STATUS.waitlisted) position += 1;
        const cancelled =
          status !== STATUS.cancelled
            ? 0
            : session.state === 'cancelled'
              ? session.cancelledAt
              : (enrolments.cancelledByStudent[cancellations++] as number);
        const completed = outcome ? time.at(session.endsOn, 17) : 0;
        yield {
          id: enrolmentId(e),
          user_id: userId(enrolments.user[e] as number),
          session_id: sessionId(enrolments.session[e] as number),
          status: STATUS_NAMES[status] as string,
          waitlist_position: status === STATUS.waitlisted ? position : null,
          confirmed_at: status === STATUS.confirmed ? iso(created) : null,
          cancelled_at: isoOrNull(cancelled),
          cancellation_reason: cancelled
            ? session.state === 'cancelled'
              ? 'The session was cancelled.'
              : 'Cancelled by the student.'
            : null,
          completion_outcome: OUTCOME_NAMES[outcome] ?? null,
          completion_notes: null,
          completion_recorded_at: isoOrNull(completed),
          created_at: iso(created),
          updated_at: iso(Math.max(created, cancelled, completed)),
        };
      }
    })(),
  );
  await table(
    'certificates',
    enrolments.certificates,
    (function* () {
      let id = ids.certificates;
      for (let e = 0; e < enrolments.count; e++) {
        const certificate = enrolments.certificate[e] as number;
        if (!certificate) continue;
        const session = sessionOf(e);
        const issued = time.past(time.at(session.endsOn + 2, 10));
        const revoked = certificate === CERTIFICATE.revoked ? time.past(issued + 30 * DAY) : 0;
        id += 1;
        yield {
          id,
          enrolment_id: enrolmentId(e),
          user_id: userId(enrolments.user[e] as number),
          course_id: courseId(session.course),
          session_id: sessionId(enrolments.session[e] as number),
          certificate_number: certificateNumber(id, iso(issued)),
          verification_token: randomBytes(24).toString('base64url'),
          status: revoked ? 'revoked' : 'valid',
          issued_at: iso(issued),
          revoked_at: isoOrNull(revoked),
          revocation_reason: revoked ? 'Issued in error.' : null,
          created_at: iso(issued),
          updated_at: iso(revoked || issued),
        };
      }
    })(),
  );
  await table('course_applications', applications.count, studentsApplications(plan, userId, courseId, ids.course_applications));
  // Staff after the students, so that a student's id does not depend on the number of staff.
  await table(
    'users',
    plan.staffCount,
    (function* () {
      for (let member = 0; member < plan.staffCount; member++) {
        const first = names.pick(FIRST_NAMES);
        const last = names.pick(LAST_NAMES);
        const created = today - names.int(1, 720) * DAY;
        yield {
          id: userId(plan.studentCount + member),
          name: `${first} ${last}`,
          email: `${ascii(first)}.${ascii(last)}.${member + 1}@staff.example`,
          status: STAFF_STATUSES[member % STAFF_STATUSES.length] as string,
          is_admin: true,
          permissions: member % 10 === 0 ? '["courses.approve"]' : '[]',
          email_verified: true,
          job_title: names.pick(JOB_TITLES),
          created_at: iso(created),
          updated_at: iso(created),
        };
      }
    })(),
    'staff',
  );
}

/**
 * The applications, as an import writes them: student after student, each student's in the order of
 * their courses. Their ids follow that order, and so does their key `(user_id, course_id)`: SQLite
 * appends to its unique index instead of inserting at random into five million entries (54 s of the
 * load at scale 10 in enrolment order, 8 s so). Each student's applications are gathered by a
 * counting sort of the enrolments that stand for one (`first`), freed once written.
 */
function* studentsApplications(
  plan: ScalePlan,
  userId: (student: number) => number,
  courseId: (course: number) => number,
  lastId: number,
): Generator<Insertable<DB['course_applications']>> {
  const { enrolments, applications, sessions } = plan;
  const starts = new Int32Array(plan.studentCount + 1);
  for (let e = 0; e < enrolments.count; e++) if (applications.first[e]) (starts[(enrolments.user[e] as number) + 1] as number)++;
  for (let student = 0; student < plan.studentCount; student++)
    starts[student + 1] = (starts[student + 1] as number) + (starts[student] as number);
  const byStudent = new Int32Array(starts[plan.studentCount] as number);
  const filled = starts.slice(0, plan.studentCount);
  for (let e = 0; e < enrolments.count; e++) if (applications.first[e]) byStudent[(filled[enrolments.user[e] as number] as number)++] = e;
  (filled.buffer as ArrayBuffer).transfer(0);
  let id = lastId;
  /** A student's applications: [course, moment] pairs. */
  const courses: [number, number][] = [];
  for (let student = 0; student < plan.studentCount; student++) {
    courses.length = 0;
    for (let i = starts[student] as number; i < (starts[student + 1] as number); i++) {
      const e = byStudent[i] as number;
      courses.push([
        (sessions[enrolments.session[e] as number] as SessionPlan).course,
        applications.earlier.get(e) ?? (enrolments.created[e] as number) - 2 * DAY,
      ]);
    }
    const unenrolled = applications.unenrolled[student] as number;
    if (unenrolled >= 0) courses.push([unenrolled, applications.latest[student] as number]);
    courses.sort((a, b) => a[0] - b[0]);
    for (const [course, moment] of courses) {
      yield {
        id: ++id,
        user_id: userId(student),
        course_id: courseId(course),
        source: 'import',
        created_at: iso(moment),
        updated_at: iso(moment),
      };
    }
  }
  for (const array of [starts, byStudent]) (array.buffer as ArrayBuffer).transfer(0);
}

/**
 * Loads the data set of `scale` into a database without users or a catalogue (ScaleRefusedError
 * otherwise). On PostgreSQL it writes over a connection of its own, free of the request timeouts,
 * which also copies the rows (`openCopyingConnection`).
 */
export async function seedScale(
  platform: Platform,
  scale: number,
  options: { onProgress?: (progress: ScaleProgress & { percent: number }) => void } = {},
): Promise<ScaleSummary> {
  if (await createDemoRepository(platform.database.db).holdsPeopleOrCatalogue()) {
    throw new ScaleRefusedError(
      'This database already holds users or a catalogue; seed --scale only loads into an empty one (create a new database for it).',
    );
  }
  const plan = planScale(scale, platform.clock.now().getTime());
  const summary = summarize(plan);
  const total =
    plan.studentCount +
    plan.staffCount +
    plan.courses.length +
    plan.sessions.length +
    summary.enrolments +
    summary.certificates +
    summary.applications;
  const own = platform.database.dialect === 'postgres' ? await openCopyingConnection(platform.database.url) : null;
  const started = performance.now();
  try {
    const done = new Map<BulkTable | 'staff', number>();
    const collect = garbageCollector();
    let collected = 0;
    const bulk = own
      ? createBulkRepository(own.db, 'postgres', own.copyFrom)
      : createBulkRepository(platform.database.db, platform.database.dialect);
    await write(bulk, plan, (progress) => {
      if ('step' in progress) {
        options.onProgress?.({ ...progress, percent: 100 });
        return;
      }
      done.set(progress.table, progress.written);
      const written = [...done.values()].reduce((sum, n) => sum + n, 0);
      if (written - collected >= ROWS_PER_COLLECTION) {
        collected = written;
        collect();
      }
      options.onProgress?.({ ...progress, percent: Math.floor((100 * written) / total) });
    });
  } finally {
    await own?.close();
  }
  // Caches of the catalogue (the course list) in running processes hold nothing of what was loaded.
  await platform.changes.announce(platform.database.db);
  return {
    scale,
    version: SCALE_SEED_VERSION,
    ...summary,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
