import { Type } from 'typebox';
import { Nullable, Ref, StringEnum } from '../../http/schemas.ts';
import { HEALTH_STATUSES } from './checks.ts';

const Status = StringEnum(HEALTH_STATUSES, { description: '`pass`, `warn` or `fail`.' });

export const HealthCheckResult = Type.Object(
  {
    name: Type.String({ description: 'The check, e.g. `database`, `redis`, `queue`, `storage`, `mail`, `disk`, `scheduler`.' }),
    status: Status,
    component_type: Type.String({ description: 'What kind of part was checked: `datastore`, `component` or `system`.' }),
    observed_value: Nullable(Type.Number({ description: 'The measured value the status was derived from.' })),
    observed_unit: Nullable(Type.String({ description: '`ms`, `s` or `%`.' })),
    output: Nullable(Type.String({ description: 'Why the check warns or fails, or a short note; null when there is nothing to say.' })),
    time: Type.String({ format: 'date-time', description: 'When this result was obtained.' }),
  },
  { $id: 'HealthCheckResult' },
);

export const HealthReport = Type.Object(
  {
    status: StringEnum(HEALTH_STATUSES, { description: 'The worst status among the checks.' }),
    checks: Type.Array(Ref(HealthCheckResult)),
  },
  { $id: 'HealthReport' },
);
