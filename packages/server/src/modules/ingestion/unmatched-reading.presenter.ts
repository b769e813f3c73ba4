import type { UnmatchedReading } from '@rpm/contracts';
import type { UnmatchedRow } from './unmatched.repository.ts';

export const presentUnmatched = (r: UnmatchedRow): UnmatchedReading => ({
  id: r.id,
  device_id: r.device_identifier,
  measured_at: r.measured_at.toISOString(),
  kind: r.kind,
  metric: r.metric,
  components: r.components,
  unit: r.unit,
  systolic: r.systolic,
  diastolic: r.diastolic,
  pulse: r.pulse,
  received_at: r.received_at.toISOString(),
});
