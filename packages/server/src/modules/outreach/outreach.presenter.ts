import type { Outreach } from '@rpm/contracts';
import { staffName } from '../../kernel/people.ts';
import { isoTime } from '../../kernel/time.ts';
import type { OutreachRow } from './outreach.repository.ts';

export function presentOutreach(row: OutreachRow): Outreach {
  return {
    id: row.id,
    patient_id: row.patient_id,
    outcome: row.outcome,
    notes: row.notes,
    user_id: row.user_id,
    user_name: staffName({ first_name: row.by_first_name, last_name: row.by_last_name, title: row.by_title, email: row.by_email }, true),
    created_at: isoTime(row.created_at),
  };
}
