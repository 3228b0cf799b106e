import { fixedClock } from '../../platform/clock.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { Platform } from '../../platform/platform.ts';
import { addDays, localDate, startOfDay } from '../../platform/time.ts';
import { applicationServiceFor } from '../applications/service.ts';
import { assessmentServiceFor } from '../assessments/service.ts';
import { certificateServiceFor } from '../certificates/service.ts';
import type { CourseState } from '../courses/schemas.ts';
import { courseServiceFor } from '../courses/service.ts';
import { enrolmentServiceFor } from '../enrolments/service.ts';
import { meetingServiceFor } from '../meetings/service.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { resourceServiceFor } from '../resources/service.ts';
import type { SessionState } from '../sessions/schemas.ts';
import { sessionServiceFor } from '../sessions/service.ts';
import { studentServiceFor } from '../students/service.ts';
import { createRandom } from './random.ts';

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
 * Loads the demo academy through the services. `base` is the operator's context; each action runs at
 * its own moment of the academy's history (a context whose clock is set to it).
 */
export async function seedDemoCatalogue(platform: Platform, base: ServiceContext): Promise<DemoCatalogueSummary> {
  const random = createRandom(SEED);
  const now = base.clock.now().getTime();
  const { timezone } = await createOrganizationRepository(platform.database.db, platform.changes).get();
  const today = localDate(new Date(now), timezone);
  /** `hour` o'clock local time, `days` days from today. */
  const local = (days: number, hour: number) => startOfDay(addDays(today, days), timezone).getTime() + hour * HOUR;
  const date = (days: number) => addDays(today, days);
  const iso = (at: number) => new Date(at).toISOString();

  const services = {
    courses: courseServiceFor(platform),
    sessions: sessionServiceFor(platform),
    students: studentServiceFor(platform),
    applications: applicationServiceFor(platform),
    enrolments: enrolmentServiceFor(platform),
    certificates: certificateServiceFor(platform),
    meetings: meetingServiceFor(platform),
    assessments: assessmentServiceFor(platform),
    resources: resourceServiceFor(platform),
  };

  // The history as a list of actions with their moments, run in time order (ties in the order added).
  const actions: { at: number; order: number; run: (ctx: ServiceContext) => Promise<unknown> }[] = [];
  const at = (moment: number, run: (ctx: ServiceContext) => Promise<unknown>) => {
    if (moment > now) throw new Error(`A demo action was planned in the future (${iso(moment)})`);
    actions.push({ at: moment, order: actions.length, run });
  };

  // Students: created long before the first course, each applying to a course shortly before enrolling.
  const studentIds: number[] = [];
  /** A student's id, once its creation has run (every student is created before anything refers to it). */
  const studentId = (index: number): number => {
    const id = studentIds[index];
    if (id === undefined) throw new Error(`Demo student ${index} is used before it is created`);
    return id;
  };
  const names = new Set<string>();
  while (names.size < STUDENTS) names.add(`${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`);
  for (const [index, name] of [...names].entries()) {
    const verified = random.chance(0.75);
    at(now - 420 * DAY + index * 3 * HOUR, async (ctx) => {
      const student = await services.students.create(ctx, {
        name,
        email: `${emailLocalPart(name)}@mail.example`,
        email_verified: verified,
      });
      studentIds[index] = student.id;
    });
  }
  const applications = new Map<string, { student: number; course: string; at: number }>();
  const apply = (student: number, course: string, moment: number) => {
    const key = `${student}:${course}`;
    const known = applications.get(key);
    if (!known || known.at > moment) applications.set(key, { student, course, at: moment });
  };

  let sessionCount = 0;
  let enrolmentCount = 0;
  let certificateCount = 0;
  for (const course of COURSES) {
    const sessionsCreated = course.sessions.map((plan) => Math.min(local(plan.startsIn - 59, 10), now - 2 * DAY));
    const created = Math.min(now - 20 * DAY, ...sessionsCreated) - 30 * DAY;
    at(created, (ctx) =>
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
      at(created + (step + 1) * 2 * DAY, (ctx) => services.courses.transition(ctx, course.slug, { to_state: to }));
    }
    let lastCompleted = created;

    for (const [index, plan] of course.sessions.entries()) {
      sessionCount += 1;
      const ref = { id: 0 };
      const sessionCreated = sessionsCreated[index] as number;
      const opens = local(plan.startsIn - 45, 9);
      const closes = local(plan.startsIn - 1, 18);
      const first = local(plan.startsIn, 8);
      const last = plan.startsIn + plan.days - 1;
      const cancelledAt = now - 12 * HOUR;
      at(sessionCreated, async (ctx) => {
        const session = await services.sessions.create(ctx, {
          course: course.slug,
          name: plan.name,
          max_participants: plan.seats,
          waitlist_enabled: plan.waitlist ?? true,
          registration_opens_at: iso(opens),
          registration_closes_at: iso(closes),
          starts_on: date(plan.startsIn),
          ends_on: date(last),
          instructor_name: plan.instructor,
        });
        ref.id = session.id;
      });
      const move = (moment: number, to: SessionState) => at(moment, (ctx) => services.sessions.transition(ctx, ref.id, { to_state: to }));
      const reached = (state: SessionState) =>
        SESSION_PATH.indexOf(plan.state === 'cancelled' ? 'open_for_registration' : plan.state) >= SESSION_PATH.indexOf(state);
      if (reached('scheduled')) move(sessionCreated + HOUR, 'scheduled');
      if (reached('open_for_registration')) move(opens, 'open_for_registration');
      if (reached('in_progress')) move(first, 'in_progress');
      if (reached('completed')) {
        move(local(last + 1, 7), 'completed');
        lastCompleted = Math.max(lastCompleted, local(last + 1, 7));
      }
      if (plan.state === 'cancelled') move(cancelledAt, 'cancelled');

      // Class days, with assessments and learning resources (one of them still a draft).
      const meetings: { id: number }[] = [];
      for (let day = 0; day < plan.days; day++) {
        const held = plan.startsIn + day;
        const meeting = { id: 0 };
        meetings.push(meeting);
        at(sessionCreated + 2 * HOUR, async (ctx) => {
          meeting.id = (
            await services.meetings.create(ctx, {
              session_id: ref.id,
              held_on: date(held),
              starts_at: iso(local(held, plan.online ? 18 : 9)),
              ends_at: iso(local(held, plan.online ? 21 : 17)),
              location: plan.online ? ONLINE : VENUE,
            })
          ).id;
        });
      }
      if (plan.cancelMeetingDay !== undefined) {
        const meeting = meetings[plan.cancelMeetingDay] as { id: number };
        at(Math.min(sessionCreated + 3 * DAY, now - DAY), (ctx) => services.meetings.cancel(ctx, meeting.id));
      }
      if (plan.state === 'cancelled') {
        for (const meeting of meetings) at(cancelledAt, (ctx) => services.meetings.cancel(ctx, meeting.id));
      }
      at(sessionCreated + 2 * HOUR, (ctx) =>
        services.assessments.create(ctx, {
          session_id: ref.id,
          title: 'Final assessment',
          kind: 'exam',
          due_at: iso(local(last, 16)),
          max_score: 100,
        }),
      );
      if (plan.days >= 4) {
        at(sessionCreated + 2 * HOUR, (ctx) =>
          services.assessments.create(ctx, {
            session_id: ref.id,
            title: 'Pre-course assignment',
            kind: 'assignment',
            due_at: iso(local(plan.startsIn - 3, 23)),
          }),
        );
      }
      const handbook = `https://northwind-academy.example/handbooks/${course.code.toLowerCase()}.pdf`;
      const published = plan.state !== 'draft';
      if (published) {
        at(sessionCreated + 2 * HOUR, (ctx) =>
          services.resources.create(ctx, {
            session_id: ref.id,
            title: 'Course handbook',
            type: 'file',
            url: handbook,
            status: 'published',
          }),
        );
        at(sessionCreated + 2 * HOUR, (ctx) =>
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
      at(sessionCreated + 2 * HOUR, (ctx) =>
        services.resources.create(ctx, {
          session_id: ref.id,
          title: 'Instructor notes',
          type: 'text',
          body: `Notes for ${plan.instructor}: room set-up, timings and exercise answers. Not for students.`,
        }),
      );

      // Enrolments, in the order the students registered; then cancellations, completions, certificates.
      const count = plan.enrol ?? 0;
      if (count === 0) continue;
      const windowEnd = Math.min(closes, plan.state === 'cancelled' ? cancelledAt - HOUR : now - HOUR);
      const span = windowEnd - opens;
      const chosen = random.shuffle([...Array(STUDENTS).keys()]).slice(0, count);
      const enrolments = chosen.map((student, k) => ({
        student,
        id: 0,
        status: k < plan.seats ? 'confirmed' : 'waitlisted',
        at: opens + HOUR + Math.floor(((k + 1) / (count + 1)) * 0.8 * span),
      }));
      enrolmentCount += count;
      for (const entry of enrolments) {
        apply(entry.student, course.slug, entry.at - 2 * DAY);
        at(entry.at, async (ctx) => {
          entry.id = (await services.enrolments.enrol(ctx, { student_id: studentId(entry.student), session_id: ref.id })).id;
        });
      }
      // The second confirmed student (whose seat goes to the head of the waitlist) and the last in line.
      const waiting = enrolments.filter((e) => e.status === 'waitlisted');
      const cancellations = [
        ...enrolments.filter((e) => e.status === 'confirmed').slice(1, 1 + (plan.cancelConfirmed ?? 0)),
        ...waiting.slice(waiting.length - (plan.cancelWaitlisted ?? 0)),
      ];
      for (const [k, entry] of cancellations.entries()) {
        at(opens + Math.floor((0.85 + k * 0.05) * span), (ctx) => services.enrolments.cancel(ctx, entry.id, random.pick(CANCEL_REASONS)));
      }
      if (plan.state === 'cancelled') {
        for (const [k, entry] of enrolments.entries()) {
          at(cancelledAt + (k + 1) * 60_000, (ctx) =>
            services.enrolments.cancel(ctx, entry.id, 'The session was cancelled; the fee is refunded in full.'),
          );
        }
      }
      if (plan.outcomes) {
        const { passed, failed, withdrawn = 0 } = plan.outcomes;
        const outcomes = random.shuffle([
          ...Array<'passed'>(passed).fill('passed'),
          ...Array<'failed'>(failed).fill('failed'),
          ...Array<'withdrawn'>(withdrawn).fill('withdrawn'),
        ]);
        if (outcomes.length !== count) throw new Error(`The outcomes of ${course.code} ${plan.name} do not add up to its enrolments`);
        const certificates: { id: number }[] = [];
        for (const [k, entry] of enrolments.entries()) {
          const outcome = outcomes[k] as 'passed' | 'failed' | 'withdrawn';
          const score = outcome === 'passed' ? random.int(62, 97) : random.int(28, 54);
          const notes = {
            passed: `Passed the final assessment with ${score}/100.`,
            failed: `Scored ${score}/100 against a pass mark of 60; may resit with a later cohort.`,
            withdrawn: `Withdrew on day ${random.int(1, plan.days)} for personal reasons.`,
          }[outcome];
          at(local(last, 17) + k * 60_000, (ctx) =>
            services.enrolments.complete(ctx, entry.id, { completion_outcome: outcome, completion_notes: notes }),
          );
          if (outcome === 'passed') {
            const certificate = { id: 0 };
            certificates.push(certificate);
            certificateCount += 1;
            at(local(last + 2, 10) + k * 60_000, async (ctx) => {
              certificate.id = (await services.certificates.issue(ctx, { enrolment_id: entry.id })).id;
            });
          }
        }
        if (plan.revokeCertificate) {
          const revoked = certificates[0] as { id: number };
          at(local(last + 16, 11), (ctx) =>
            services.certificates.revoke(ctx, revoked.id, { reason: 'Issued in error: the final assessment was marked twice.' }),
          );
        }
      }
    }
    if (course.state === 'archived')
      at(lastCompleted + 20 * DAY, (ctx) => services.courses.transition(ctx, course.slug, { to_state: 'archived' }));
  }

  // Applications: before each first enrolment into a course, and for every student who has not
  // enrolled yet, one to a course that is open or about to open.
  const open = COURSES.filter((c) => c.state === 'published').map((c) => c.slug);
  const applied = new Set([...applications.values()].map((a) => a.student));
  for (let student = 0; student < STUDENTS; student++) {
    if (!applied.has(student) || random.chance(0.15)) apply(student, random.pick(open), now - random.int(2, 30) * DAY);
  }
  for (const application of applications.values()) {
    at(application.at, (ctx) =>
      services.applications.create(ctx, { student_id: studentId(application.student), course: application.course }),
    );
  }

  actions.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const action of actions) await action.run({ ...base, clock: fixedClock(new Date(action.at)) });

  return {
    courses: COURSES.length,
    sessions: sessionCount,
    students: STUDENTS,
    enrolments: enrolmentCount,
    certificates: certificateCount,
  };
}
