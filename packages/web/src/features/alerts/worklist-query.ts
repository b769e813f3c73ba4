import {
  ALERT_RULES,
  ALERT_SEVERITIES,
  AlertTexts,
  WORKLIST_SORTS,
  type AlertRule,
  type AlertSeverity,
  type WorklistSort,
} from '@rpm/contracts';
import type { WorklistParams } from '../../api/alerts/get-worklist.ts';
import { useSearchParamsUpdate } from '../../lib/search-params.ts';
export const PAGE_SIZES = [10, 25, 50];
export const DEFAULT_ROWS = 25;
export const STATUS_FILTERS = ['active', 'open', 'acknowledged'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];
export const STATUS_LABEL: Record<StatusFilter, string> = {
  active: AlertTexts.statusActive,
  open: AlertTexts.statuses.open,
  acknowledged: AlertTexts.statuses.acknowledged,
};
export const SORT_LABEL: Record<WorklistSort, string> = {
  priority: AlertTexts.colPriority,
  patient: AlertTexts.colPatient,
  waiting: AlertTexts.colWaiting,
  last_reading: AlertTexts.colLastReading,
};
/** The columns as the phone's sort field offers them, in the table's order. */
export const SORT_OPTIONS = WORKLIST_SORTS.map((value) => ({ value, label: SORT_LABEL[value] }));

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/**
 * The worklist's filters, sort and page live in the address: a reload keeps them and Back undoes
 * the last change (each change is a history entry, unlike typing in a search box).
 */
export function useWorklistQuery() {
  const [params, update] = useSearchParamsUpdate({ replace: false });
  const rowsParam = Number(params.get('rows'));
  const limit = PAGE_SIZES.includes(rowsParam) ? rowsParam : DEFAULT_ROWS;
  const page = Math.max(0, Math.floor(Number(params.get('page')) || 0));
  const provider = Number(params.get('provider'));
  const query: WorklistParams = {
    status: oneOf(STATUS_FILTERS, params.get('status')) ?? 'active',
    severity: oneOf<AlertSeverity>(ALERT_SEVERITIES, params.get('severity')),
    rule: oneOf<AlertRule>(ALERT_RULES, params.get('rule')),
    provider_id: Number.isInteger(provider) && provider > 0 ? provider : undefined,
    sort: oneOf(WORKLIST_SORTS, params.get('sort')) ?? 'priority',
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    limit,
    offset: page * limit,
  };
  return { query, page, limit, update };
}
