import type { Static } from 'typebox';
import type { HealthCheckResult, HealthReport } from './schemas.ts';

const check: Static<typeof HealthCheckResult> = {
  name: 'database',
  status: 'pass',
  component_type: 'datastore',
  observed_value: 1.2,
  observed_unit: 'ms',
  output: null,
  time: '2026-11-24T03:00:00.052Z',
};

const health: Static<typeof HealthReport> = {
  status: 'pass',
  checks: [
    check,
    {
      name: 'queue',
      status: 'pass',
      component_type: 'component',
      observed_value: 0,
      observed_unit: 's',
      output: 'No job is waiting.',
      time: '2026-11-24T03:00:00.052Z',
    },
  ],
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  HealthCheckResult: check,
  HealthReport: health,
};
