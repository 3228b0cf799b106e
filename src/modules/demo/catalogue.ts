import { fixedClock } from '../../platform/clock.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { Platform } from '../../platform/platform.ts';
import type { Services } from '../../platform/services.ts';
import { addDays, localDate, startOfDay } from '../../platform/time.ts';
import type { CourseState } from '../courses/schemas.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import type { SessionState } from '../sessions/schemas.ts';
import { createRandom, type Random } from './random.ts';

/**
 * The demo academy: courses in every publication state, sessions in every workflow state (full ones
 * with waitlists, completed ones with passed and failed students and their certificates, one of them
 * revoked), draft resources, cancelled meetings, and students with their applications.
 *
 * Everything is created through the services, in the order it would have happened: each action runs
 * with a clock set to its own moment in the academy's history, so counters, waitlist positions,
 * events and timestamps are what months of real use would have left. Dates are relative to the day
 * of seeding (a session "in progress" is in progress whenever the demo is loaded); the content (names,
 * who enrols where, outcomes) comes from a generator with a fixed seed, so every load is the same.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SEED = 20_261_122;
const CURRENCY = 'GBP';
const VENUE = 'Room 2.14, 12 Learning Lane, London EC1A 1AA';
const ONLINE = 'Online (video call; the link is in the joining instructions)';

interface SessionPlan {
  name: string;
  state: SessionState;
  /** First day, in days from the day of seeding. */
  startsIn: number;
  days: number;
  seats: number;
  waitlist?: boolean;
  instructor: string;
  online?: boolean;
  /** Students who enrol, in order; beyond the seats they join the waitlist. */
  enrol?: number;
  /** Confirmed enrolments cancelled later (each seat goes to the head of the waitlist). */
  cancelConfirmed?: number;
  /** Waitlisted enrolments cancelled later (the waitlist closes up). */
  cancelWaitlisted?: number;
  /** Completions of a completed session; they add up to its enrolments. */
  outcomes?: { passed: number; failed: number; withdrawn?: number };
  /** One of the session's certificates is revoked. */
  revokeCertificate?: boolean;
  /** The class day (0-based) that is called off. */
  cancelMeetingDay?: number;
}

interface CoursePlan {
  slug: string;
  code: string;
  title: string;
  price: string;
  language: string;
  description: string;
  state: CourseState;
  sessions: SessionPlan[];
}

const COURSES: CoursePlan[] = [
  {
    slug: 'project-management-fundamentals',
    code: 'PM-101',
    title: 'Project Management Fundamentals',
    price: '450.00',
    language: 'en',
    description: 'Plan, run and close projects: scope, schedules, risks, stakeholders and reporting, with a case study each day.',
    state: 'published',
    sessions: [
      {
        name: 'Cohort 14',
        state: 'completed',
        startsIn: -70,
        days: 5,
        seats: 12,
        instructor: 'Margaret Osei',
        enrol: 12,
        outcomes: { passed: 9, failed: 2, withdrawn: 1 },
        revokeCertificate: true,
      },
      {
        name: 'Cohort 15',
        state: 'open_for_registration',
        startsIn: 24,
        days: 5,
        seats: 10,
        instructor: 'Margaret Osei',
        enrol: 14,
        cancelConfirmed: 1,
        cancelWaitlisted: 1,
        cancelMeetingDay: 2,
      },
      { name: 'Cohort 16 (evenings)', state: 'scheduled', startsIn: 75, days: 10, seats: 16, instructor: 'Daniel Reyes', online: true },
    ],
  },
  {
    slug: 'python-for-data-analysis',
    code: 'PY-201',
    title: 'Python for Data Analysis',
    price: '690.00',
    language: 'en',
    description: 'From spreadsheets to pandas: loading, cleaning, joining and charting data with Python and Jupyter notebooks.',
    state: 'published',
    sessions: [
      {
        name: 'Cohort 7',
        state: 'completed',
        startsIn: -35,
        days: 4,
        seats: 15,
        instructor: 'Priya Natarajan',
        enrol: 13,
        outcomes: { passed: 11, failed: 2 },
      },
      { name: 'Cohort 8', state: 'in_progress', startsIn: -1, days: 4, seats: 15, instructor: 'Priya Natarajan', enrol: 15 },
      { name: 'Weekend cohort', state: 'cancelled', startsIn: 40, days: 4, seats: 12, instructor: 'Tom Becker', enrol: 5 },
    ],
  },
  {
    slug: 'leadership-essentials',
    code: 'LD-110',
    title: 'Leadership Essentials',
    price: '520.00',
    language: 'en',
    description: 'For new team leads: giving feedback, delegating, running one-to-ones and leading through change.',
    state: 'published',
    sessions: [
      {
        name: 'Cohort 3',
        state: 'completed',
        startsIn: -120,
        days: 3,
        seats: 10,
        instructor: 'Helen Ward',
        enrol: 10,
        outcomes: { passed: 8, failed: 1, withdrawn: 1 },
      },
      { name: 'Cohort 4', state: 'open_for_registration', startsIn: 14, days: 3, seats: 20, instructor: 'Helen Ward', enrol: 7 },
    ],
  },
  {
    slug: 'first-aid-at-work',
    code: 'FA-100',
    title: 'First Aid at Work',
    price: '240.00',
    language: 'en-GB',
    description: 'The three-day workplace first aid qualification: assessment of casualties, CPR and defibrillation, injuries and illness.',
    state: 'published',
    sessions: [
      {
        name: 'Course 31',
        state: 'completed',
        startsIn: -20,
        days: 3,
        seats: 16,
        instructor: 'Samuel Okafor',
        enrol: 14,
        outcomes: { passed: 13, failed: 1 },
      },
      {
        name: 'Course 32',
        state: 'open_for_registration',
        startsIn: 9,
        days: 3,
        seats: 12,
        waitlist: false,
        instructor: 'Samuel Okafor',
        enrol: 12,
      },
      { name: 'Course 33', state: 'open_for_registration', startsIn: 30, days: 3, seats: 12, instructor: 'Grace Lindqvist', enrol: 15 },
    ],
  },
  {
    slug: 'agile-scrum-practitioner',
    code: 'AG-150',
    title: 'Agile Scrum Practitioner',
    price: '580.00',
    language: 'en',
    description: 'Scrum roles, events and artefacts in practice, with a simulated sprint and the practitioner exam.',
    state: 'published',
    sessions: [
      { name: 'Cohort 2', state: 'in_progress', startsIn: -2, days: 5, seats: 18, instructor: 'Daniel Reyes', enrol: 11, online: true },
      { name: 'Cohort 3', state: 'draft', startsIn: 100, days: 5, seats: 18, instructor: 'Daniel Reyes' },
    ],
  },
  {
    slug: 'business-german-b1',
    code: 'DE-101',
    title: 'Geschäftsdeutsch (B1)',
    price: '390.00',
    language: 'de',
    description: 'Deutsch für den Berufsalltag: Besprechungen, E-Mails, Telefonate und Präsentationen auf B1-Niveau.',
    state: 'published',
    sessions: [{ name: 'Intensivkurs', state: 'scheduled', startsIn: 60, days: 5, seats: 14, instructor: 'Jürgen Hoffmann', online: true }],
  },
  {
    slug: 'advanced-excel',
    code: 'XL-300',
    title: 'Advanced Excel',
    price: '310.00',
    language: 'en',
    description: 'Lookups, pivot tables, Power Query and dashboards. Retired: replaced by Python for Data Analysis.',
    state: 'archived',
    sessions: [
      {
        name: 'Final run',
        state: 'completed',
        startsIn: -200,
        days: 2,
        seats: 20,
        instructor: 'Priya Natarajan',
        enrol: 16,
        outcomes: { passed: 14, failed: 2 },
      },
    ],
  },
  {
    slug: 'cloud-security-foundations',
    code: 'CS-210',
    title: 'Cloud Security Foundations',
    price: '750.00',
    language: 'en',
    description: 'Identity, network and data security on the major cloud platforms; approved, to be published with its first session.',
    state: 'approved',
    sessions: [{ name: 'Pilot', state: 'draft', startsIn: 90, days: 3, seats: 12, instructor: 'Aisha Rahman' }],
  },
  {
    slug: 'negotiation-skills',
    code: 'NG-120',
    title: 'Negotiation Skills',
    price: '410.00',
    language: 'en',
    description: 'Preparing, anchoring, trading concessions and closing; in review with the curriculum board.',
    state: 'review',
    sessions: [],
  },
  {
    slug: 'data-protection-essentials',
    code: 'DP-130',
    title: 'Data Protection Essentials (UK GDPR)',
    price: '280.00',
    language: 'en-GB',
    description: 'Lawful bases, subject access requests, breaches and records of processing. Draft outline.',
    state: 'draft',
    sessions: [],
  },
];

/** The publication moves that lead to each state (an archived course is archived after its last session). */
const ROUTES: Record<CourseState, CourseState[]> = {
  draft: [],
  review: ['review'],
  approved: ['review', 'approved'],
  published: ['review', 'approved', 'published'],
  archived: ['review', 'approved', 'published'],
};

/** The workflow states a session passes through, in order; a cancelled one was open for registration first. */
const SESSION_PATH: SessionState[] = ['draft', 'scheduled', 'open_for_registration', 'in_progress', 'completed'];

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
  'Ines',
  'Yusuf',
  'Elena',
  'Finn',
  'Amara',
  'Dmitri',
];
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
];
const STUDENTS = 64;
const CANCEL_REASONS = ['Changed jobs', 'Schedule conflict with a work project', 'Moved to a later cohort', 'Funding was not approved'];

export interface DemoCatalogueSummary {
  courses: number;
  sessions: number;
  students: number;
  enrolments: number;
  certificates: number;
}

/** Plain ASCII for an email address: "Zoë Müller" → "zoe.muller". */
function emailLocalPart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.');
}

/**
 * Loads the demo academy through the process's services. `base` is the operator's context; each
 * action runs at its own moment of the academy's history (a context whose clock is set to it).
 */
export async function seedDemoCatalogue(platform: Platform, services: Services, base: ServiceContext): Promise<DemoCatalogueSummary> {
  const history = await startHistory(platform, services, base);
  planStudents(history);
  for (const course of COURSES) planCourse(history, course);
  planApplications(history);
  await runHistory(history, base);
  return {
    courses: COURSES.length,
    sessions: history.counts.sessions,
    students: STUDENTS,
    enrolments: history.counts.enrolments,
    certificates: history.counts.certificates,
  };
}

type Action = (ctx: ServiceContext) => Promise<unknown>;

/** What every step of the demo works with: its clock and calendar, the services, and the actions planned so far. */
interface History {
  random: Random;
  now: number;
  /** `hour` o'clock local time, `days` days from today. */
  local(days: number, hour: number): number;
  /** The local date `days` days from today. */
  date(days: number): string;
  services: Services;
  /** The history as a list of actions with their moments, run in time order (ties in the order added). */
  actions: { at: number; order: number; run: Action }[];
  /** Plans `run` at `moment`, which must not be in the future. */
  at(moment: number, run: Action): void;
  /** Each student's id once created, by the student's index. */
  studentIds: number[];
  /** Each student's earliest application to each course, by `student:course`. */
  applications: Map<string, { student: number; course: string; at: number }>;
  counts: { sessions: number; enrolments: number; certificates: number };
}

async function startHistory(platform: Platform, services: Services, base: ServiceContext): Promise<History> {
  const now = base.clock.now().getTime();
  const { timezone } = await createOrganizationRepository(platform.database.db, platform.changes).get();
  const today = localDate(new Date(now), timezone);
  const actions: History['actions'] = [];
  return {
    random: createRandom(SEED),
    now,
    local: (days, hour) => startOfDay(addDays(today, days), timezone).getTime() + hour * HOUR,
    date: (days) => addDays(today, days),
    services,
    actions,
    at(moment, run) {
      if (moment > now) throw new Error(`A demo action was planned in the future (${iso(moment)})`);
      actions.push({ at: moment, order: actions.length, run });
    },
    studentIds: [],
    applications: new Map(),
    counts: { sessions: 0, enrolments: 0, certificates: 0 },
  };
}

function iso(at: number): string {
  return new Date(at).toISOString();
}

/** A student's id, once its creation has run (every student is created before anything refers to it). */
function studentId(history: History, index: number): number {
  const id = history.studentIds[index];
  if (id === undefined) throw new Error(`Demo student ${index} is used before it is created`);
  return id;
}

/** Notes a student's application to a course at `moment`, unless an earlier one is noted. */
function apply(history: History, student: number, course: string, moment: number): void {
  const key = `${student}:${course}`;
  const known = history.applications.get(key);
  if (!known || known.at > moment) history.applications.set(key, { student, course, at: moment });
}

/** Students: created long before the first course, each applying to a course shortly before enrolling. */
function planStudents(history: History): void {
  const { random, services } = history;
  const names = new Set<string>();
  while (names.size < STUDENTS) names.add(`${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`);
  for (const [index, name] of [...names].entries()) {
    const verified = random.chance(0.75);
    history.at(history.now - 420 * DAY + index * 3 * HOUR, async (ctx) => {
      const student = await services.students.create(ctx, {
        name,
        email: `${emailLocalPart(name)}@mail.example`,
        email_verified: verified,
      });
      history.studentIds[index] = student.id;
    });
  }
}

/** A course from its creation: its publication moves, its sessions, and its archiving after the last of them. */
function planCourse(history: History, course: CoursePlan): void {
  const { services } = history;
  const sessionsCreated = course.sessions.map((plan) => Math.min(history.local(plan.startsIn - 59, 10), history.now - 2 * DAY));
  const created = Math.min(history.now - 20 * DAY, ...sessionsCreated) - 30 * DAY;
  history.at(created, (ctx) =>
    services.courses.create(ctx, {
      slug: course.slug,
      code: course.code,
      title: course.title,
      price: course.price,
      currency: CURRENCY,
      language: course.language,
      description: course.description,
    }),
  );
  for (const [step, to] of ROUTES[course.state].entries()) {
    history.at(created + (step + 1) * 2 * DAY, (ctx) => services.courses.transition(ctx, course.slug, { to_state: to }));
  }
  let lastCompleted = created;
  for (const [index, plan] of course.sessions.entries()) {
    const completed = planSession(history, course, plan, sessionsCreated[index] as number);
    if (completed !== null) lastCompleted = Math.max(lastCompleted, completed);
  }
  if (course.state === 'archived') {
    history.at(lastCompleted + 20 * DAY, (ctx) => services.courses.transition(ctx, course.slug, { to_state: 'archived' }));
  }
}

/** The moments of a session's life. */
interface SessionMoments {
  created: number;
  opens: number;
  closes: number;
  /** 8 o'clock on its first day. */
  first: number;
  /** Its last day, in days from today. */
  last: number;
  /** When a cancelled session is called off (12 hours ago). */
  cancelledAt: number;
}

/** A session from its creation to its state today; returns when it was completed (null if it was not). */
function planSession(history: History, course: CoursePlan, plan: SessionPlan, created: number): number | null {
  history.counts.sessions += 1;
  const moments: SessionMoments = {
    created,
    opens: history.local(plan.startsIn - 45, 9),
    closes: history.local(plan.startsIn - 1, 18),
    first: history.local(plan.startsIn, 8),
    last: plan.startsIn + plan.days - 1,
    cancelledAt: history.now - 12 * HOUR,
  };
  const ref = { id: 0 };
  history.at(created, async (ctx) => {
    const session = await history.services.sessions.create(ctx, {
      course: course.slug,
      name: plan.name,
      max_participants: plan.seats,
      waitlist_enabled: plan.waitlist ?? true,
      registration_opens_at: iso(moments.opens),
      registration_closes_at: iso(moments.closes),
      starts_on: history.date(plan.startsIn),
      ends_on: history.date(moments.last),
      instructor_name: plan.instructor,
    });
    ref.id = session.id;
  });
  const completed = planSessionMoves(history, plan, ref, moments);
  planClassDays(history, plan, ref, moments);
  planAssessments(history, plan, ref, moments);
  planResources(history, course, plan, ref, moments);
  planEnrolments(history, course, plan, ref, moments);
  return completed;
}

/** The workflow moves that bring the session to its state; returns when it was completed (null if it was not). */
function planSessionMoves(history: History, plan: SessionPlan, ref: { id: number }, moments: SessionMoments): number | null {
  const move = (moment: number, to: SessionState) =>
    history.at(moment, (ctx) => history.services.sessions.transition(ctx, ref.id, { to_state: to }));
  const reached = (state: SessionState) =>
    SESSION_PATH.indexOf(plan.state === 'cancelled' ? 'open_for_registration' : plan.state) >= SESSION_PATH.indexOf(state);
  let completed: number | null = null;
  if (reached('scheduled')) move(moments.created + HOUR, 'scheduled');
  if (reached('open_for_registration')) move(moments.opens, 'open_for_registration');
  if (reached('in_progress')) move(moments.first, 'in_progress');
  if (reached('completed')) {
    completed = history.local(moments.last + 1, 7);
    move(completed, 'completed');
  }
  if (plan.state === 'cancelled') move(moments.cancelledAt, 'cancelled');
  return completed;
}

/** Class days (meetings): one called off when the plan says, all of them when the session is cancelled. */
function planClassDays(history: History, plan: SessionPlan, ref: { id: number }, moments: SessionMoments): void {
  const { services } = history;
  const meetings: { id: number }[] = [];
  for (let day = 0; day < plan.days; day++) {
    const held = plan.startsIn + day;
    const meeting = { id: 0 };
    meetings.push(meeting);
    history.at(moments.created + 2 * HOUR, async (ctx) => {
      meeting.id = (
        await services.meetings.create(ctx, {
          session_id: ref.id,
          held_on: history.date(held),
          starts_at: iso(history.local(held, plan.online ? 18 : 9)),
          ends_at: iso(history.local(held, plan.online ? 21 : 17)),
          location: plan.online ? ONLINE : VENUE,
        })
      ).id;
    });
  }
  if (plan.cancelMeetingDay !== undefined) {
    const meeting = meetings[plan.cancelMeetingDay] as { id: number };
    history.at(Math.min(moments.created + 3 * DAY, history.now - DAY), (ctx) => services.meetings.cancel(ctx, meeting.id));
  }
  if (plan.state === 'cancelled') {
    for (const meeting of meetings) history.at(moments.cancelledAt, (ctx) => services.meetings.cancel(ctx, meeting.id));
  }
}

/** The final assessment, and a pre-course assignment for a course of four days or more. */
function planAssessments(history: History, plan: SessionPlan, ref: { id: number }, moments: SessionMoments): void {
  const { services } = history;
  const added = moments.created + 2 * HOUR;
  history.at(added, (ctx) =>
    services.assessments.create(ctx, {
      session_id: ref.id,
      title: 'Final assessment',
      kind: 'exam',
      due_at: iso(history.local(moments.last, 16)),
      max_score: 100,
    }),
  );
  if (plan.days >= 4) {
    history.at(added, (ctx) =>
      services.assessments.create(ctx, {
        session_id: ref.id,
        title: 'Pre-course assignment',
        kind: 'assignment',
        due_at: iso(history.local(plan.startsIn - 3, 23)),
      }),
    );
  }
}

/** Learning resources: the handbook and joining instructions once it is scheduled; the instructor's notes stay a draft. */
function planResources(history: History, course: CoursePlan, plan: SessionPlan, ref: { id: number }, moments: SessionMoments): void {
  const { services } = history;
  const added = moments.created + 2 * HOUR;
  const handbook = `https://northwind-academy.example/handbooks/${course.code.toLowerCase()}.pdf`;
  const published = plan.state !== 'draft';
  if (published) {
    history.at(added, (ctx) =>
      services.resources.create(ctx, {
        session_id: ref.id,
        title: 'Course handbook',
        type: 'file',
        url: handbook,
        status: 'published',
      }),
    );
    history.at(added, (ctx) =>
      services.resources.create(ctx, {
        session_id: ref.id,
        title: 'Joining instructions',
        type: 'text',
        body: plan.online
          ? 'Sessions run online from 18:00 to 21:00. Join five minutes early to test your camera and microphone.'
          : `Sessions run from 09:00 to 17:00 at ${VENUE}. Lunch is provided; please tell us about dietary needs.`,
        status: 'published',
      }),
    );
  }
  history.at(added, (ctx) =>
    services.resources.create(ctx, {
      session_id: ref.id,
      title: 'Instructor notes',
      type: 'text',
      body: `Notes for ${plan.instructor}: room set-up, timings and exercise answers. Not for students.`,
    }),
  );
}

/** An enrolment as planned: its student (by index), its status when made, its moment, and its id once made. */
interface PlannedEnrolment {
  student: number;
  id: number;
  status: string;
  at: number;
}

/** Enrolments, in the order the students registered; then cancellations, completions, certificates. */
function planEnrolments(history: History, course: CoursePlan, plan: SessionPlan, ref: { id: number }, moments: SessionMoments): void {
  const { random, services } = history;
  const count = plan.enrol ?? 0;
  if (count === 0) return;
  const { opens } = moments;
  const windowEnd = Math.min(moments.closes, plan.state === 'cancelled' ? moments.cancelledAt - HOUR : history.now - HOUR);
  const span = windowEnd - opens;
  const chosen = random.shuffle([...Array(STUDENTS).keys()]).slice(0, count);
  const enrolments: PlannedEnrolment[] = chosen.map((student, k) => ({
    student,
    id: 0,
    status: k < plan.seats ? 'confirmed' : 'waitlisted',
    at: opens + HOUR + Math.floor(((k + 1) / (count + 1)) * 0.8 * span),
  }));
  history.counts.enrolments += count;
  for (const entry of enrolments) {
    apply(history, entry.student, course.slug, entry.at - 2 * DAY);
    history.at(entry.at, async (ctx) => {
      entry.id = (await services.enrolments.enrol(ctx, { student_id: studentId(history, entry.student), session_id: ref.id })).id;
    });
  }
  planCancellations(history, plan, enrolments, { opens, span, cancelledAt: moments.cancelledAt });
  if (plan.outcomes) planCompletions(history, course, plan, enrolments, moments.last);
}

/**
 * The second confirmed student (whose seat goes to the head of the waitlist) and the last in line
 * cancel; everyone's enrolment is cancelled with a cancelled session.
 */
function planCancellations(
  history: History,
  plan: SessionPlan,
  enrolments: PlannedEnrolment[],
  { opens, span, cancelledAt }: { opens: number; span: number; cancelledAt: number },
): void {
  const { random, services } = history;
  const waiting = enrolments.filter((e) => e.status === 'waitlisted');
  const cancellations = [
    ...enrolments.filter((e) => e.status === 'confirmed').slice(1, 1 + (plan.cancelConfirmed ?? 0)),
    ...waiting.slice(waiting.length - (plan.cancelWaitlisted ?? 0)),
  ];
  for (const [k, entry] of cancellations.entries()) {
    history.at(opens + Math.floor((0.85 + k * 0.05) * span), (ctx) =>
      services.enrolments.cancel(ctx, entry.id, random.pick(CANCEL_REASONS)),
    );
  }
  if (plan.state === 'cancelled') {
    for (const [k, entry] of enrolments.entries()) {
      history.at(cancelledAt + (k + 1) * 60_000, (ctx) =>
        services.enrolments.cancel(ctx, entry.id, 'The session was cancelled; the fee is refunded in full.'),
      );
    }
  }
}

/** A completed session's outcomes, in a shuffled order, with a certificate for each pass (one revoked when the plan says). */
function planCompletions(history: History, course: CoursePlan, plan: SessionPlan, enrolments: PlannedEnrolment[], last: number): void {
  const { random, services } = history;
  const { passed, failed, withdrawn = 0 } = plan.outcomes as NonNullable<SessionPlan['outcomes']>;
  const outcomes = random.shuffle([
    ...Array<'passed'>(passed).fill('passed'),
    ...Array<'failed'>(failed).fill('failed'),
    ...Array<'withdrawn'>(withdrawn).fill('withdrawn'),
  ]);
  if (outcomes.length !== enrolments.length) {
    throw new Error(`The outcomes of ${course.code} ${plan.name} do not add up to its enrolments`);
  }
  const certificates: { id: number }[] = [];
  for (const [k, entry] of enrolments.entries()) {
    const outcome = outcomes[k] as 'passed' | 'failed' | 'withdrawn';
    const score = outcome === 'passed' ? random.int(62, 97) : random.int(28, 54);
    const notes = {
      passed: `Passed the final assessment with ${score}/100.`,
      failed: `Scored ${score}/100 against a pass mark of 60; may resit with a later cohort.`,
      withdrawn: `Withdrew on day ${random.int(1, plan.days)} for personal reasons.`,
    }[outcome];
    history.at(history.local(last, 17) + k * 60_000, (ctx) =>
      services.enrolments.complete(ctx, entry.id, { completion_outcome: outcome, completion_notes: notes }),
    );
    if (outcome === 'passed') {
      const certificate = { id: 0 };
      certificates.push(certificate);
      history.counts.certificates += 1;
      history.at(history.local(last + 2, 10) + k * 60_000, async (ctx) => {
        certificate.id = (await services.certificates.issue(ctx, { enrolment_id: entry.id })).id;
      });
    }
  }
  if (plan.revokeCertificate) {
    const revoked = certificates[0] as { id: number };
    history.at(history.local(last + 16, 11), (ctx) =>
      services.certificates.revoke(ctx, revoked.id, { reason: 'Issued in error: the final assessment was marked twice.' }),
    );
  }
}

/**
 * Applications: before each first enrolment into a course, and for every student who has not
 * enrolled yet, one to a course that is open or about to open.
 */
function planApplications(history: History): void {
  const { random, services } = history;
  const open = COURSES.filter((c) => c.state === 'published').map((c) => c.slug);
  const applied = new Set([...history.applications.values()].map((a) => a.student));
  for (let student = 0; student < STUDENTS; student++) {
    if (!applied.has(student) || random.chance(0.15)) apply(history, student, random.pick(open), history.now - random.int(2, 30) * DAY);
  }
  for (const application of history.applications.values()) {
    history.at(application.at, (ctx) =>
      services.applications.create(ctx, { student_id: studentId(history, application.student), course: application.course }),
    );
  }
}

/** Runs the planned actions in time order, each with a clock set to its moment. */
async function runHistory(history: History, base: ServiceContext): Promise<void> {
  history.actions.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const action of history.actions) await action.run({ ...base, clock: fixedClock(new Date(action.at)) });
}
