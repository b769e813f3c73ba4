import type { BillingNeeds } from '../billing.ts';
import type { ContactType, TrackingActivity } from '../tracking.ts';

/** Words for what tracking time was spent on, in the dialog's order. */
export const TrackingActivityLabels: Record<TrackingActivity, string> = {
  review_readings: 'Review of readings',
  phone_call: 'Phone call',
  video_visit: 'Video visit',
  care_plan_update: 'Care plan update',
  medication_review: 'Medication review',
  education: 'Patient education',
  care_coordination: 'Care coordination',
  other: 'Other',
};

/** Words for the live, interactive contact of a tracking entry. */
export const ContactTypeLabels: Record<ContactType, string> = {
  phone: 'Phone call',
  video: 'Video',
  in_person: 'In person',
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The billing worklist's action: what the cheapest next code needs, in a care manager's words
 * ("needs 6 more minutes and a call", "needs readings on 4 of the next 5 days").
 */
export function billingNeedsText(needs: BillingNeeds): string {
  if (needs.code === null) return 'Nothing more to earn this month';
  const parts: string[] = [];
  if (needs.days > 0) {
    parts.push(`readings on ${needs.days} of the next ${plural(needs.within_days, 'day', 'days')}`);
  }
  if (needs.minutes > 0) parts.push(plural(needs.minutes, 'more minute', 'more minutes'));
  if (needs.contact) parts.push('a call');
  return parts.length === 0 ? `${needs.code} earned` : `needs ${parts.join(' and ')} for ${needs.code}`;
}
