import {
  Chip,
  LinearProgress,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import {
  billingNeedsText,
  BillingPageTexts,
  BillingTexts,
  type BillingWorklistQuery,
  type BillingWorklistRow,
  type BillingWorklistSort,
  type SortOrder,
} from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { useBillingWorklist } from '../../api/billing/get-billing-worklist.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useProviders } from '../../api/organizations/get-providers.ts';
import { usePrograms } from '../../api/programs/get-programs.ts';
import { paths } from '../../config/paths.ts';
import { QueryStates } from '../../components/table-states.tsx';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { FilterBar, MonthField, SelectFilter } from './billing-filters.tsx';
import { MONTH } from './billing-month.ts';
import { billingPageOf, BillingPager } from './billing-pager.tsx';
import type { BillingViewProps } from './billing-page.tsx';
import { firstOrder, isWorklistSort } from './worklist-sort.ts';

const PROGRAM = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * The month's worklist: for each enrolled patient what the month has earned so far and the
 * cheapest next code with what it needs, flagged when the device days are out of reach. The
 * server ranks the rows by what can still be earned and sends them a page at a time; a column
 * heading has the server sort every row by that column instead (from the first page).
 */
export function BillingWorklistView({ search, update, isAdmin, organizationId, organizationFilter }: BillingViewProps) {
  const { user } = useAuth();
  const requested = search.get('month') ?? '';
  const providerParam = Number(search.get('provider_id'));
  const programParam = search.get('program') ?? '';
  const sortParam = search.get('sort');
  const sort = isWorklistSort(sortParam) ? sortParam : null;
  const order: SortOrder = search.get('order') === 'desc' ? 'desc' : 'asc';
  const query: BillingWorklistQuery = {
    ...(MONTH.test(requested) ? { month: requested } : {}),
    ...(organizationId === null ? {} : { organization_id: organizationId }),
    ...(Number.isInteger(providerParam) && providerParam > 0 ? { provider_id: providerParam } : {}),
    ...(PROGRAM.test(programParam) ? { program: programParam } : {}),
    ...(sort === null ? {} : { sort, order }),
    ...billingPageOf(search),
  };
  const worklist = useBillingWorklist(query);
  const organizations = useOrganizations();
  // Providers are listed per organization: a provider's own, or the one an admin has chosen (or
  // the only one there is).
  const onlyOrganization = organizations.data?.length === 1 ? organizations.data[0]!.id : null;
  const providerScope = isAdmin ? (organizationId ?? onlyOrganization) : (user?.organization_id ?? null);
  const providers = useProviders(providerScope);
  const programs = usePrograms();

  return (
    <>
      <FilterBar alignItems="flex-start">
        <MonthField
          value={query.month ?? worklist.data?.month ?? ''}
          onChange={(month) => update({ view: 'worklist', month })}
        />
        {organizationFilter}
        <SelectFilter
          label={BillingPageTexts.provider}
          allLabel={BillingPageTexts.allProviders}
          value={query.provider_id === undefined ? '' : String(query.provider_id)}
          options={providers.data?.map((p) => ({ value: String(p.id), label: p.name }))}
          onChange={(value) => update({ provider_id: value })}
          disabled={providerScope === null}
          helperText={providerScope === null ? BillingPageTexts.providerNeedsOrganization : undefined}
        />
        <SelectFilter
          label={BillingPageTexts.program}
          allLabel={BillingPageTexts.allPrograms}
          value={query.program ?? ''}
          options={programs.data?.items.map((p) => ({ value: p.id, label: p.label }))}
          onChange={(value) => update({ program: value })}
        />
      </FilterBar>
      {worklist.isFetching && !worklist.isPending && <LinearProgress sx={{ mb: 1 }} aria-label="Loading" />}
      <QueryStates
        query={worklist}
        errorFallback={BillingPageTexts.failedToLoadWorklist}
        isEmpty={(data) => data.total === 0}
        emptyText={BillingPageTexts.noWorklistRows}
      >
        {(data) => (
          <>
            <Typography color="text.secondary" sx={{ mb: 1 }} data-testid="worklist-as-of">
              {BillingPageTexts.worklistAsOf(data.month, data.today)}
            </Typography>
            <WorklistTable
              rows={data.rows}
              sort={sort}
              order={order}
              onSort={(column) => {
                // Each heading cycles: its first direction, the other one, then the server's order.
                // The server sorts every row, so the first page of the new order is shown.
                if (sort !== column) update({ sort: column, order: firstOrder(column) });
                else if (order === firstOrder(column)) update({ order: order === 'asc' ? 'desc' : 'asc' });
                else update({ sort: undefined, order: undefined });
              }}
            />
            <BillingPager total={data.total} limit={data.limit} offset={data.offset} update={update} />
          </>
        )}
      </QueryStates>
    </>
  );
}

interface WorklistTableProps {
  rows: BillingWorklistRow[];
  sort: BillingWorklistSort | null;
  order: SortOrder;
  onSort: (column: BillingWorklistSort) => void;
}

function WorklistTable({ rows, sort, order, onSort }: WorklistTableProps) {
  const { timezone } = useTimezone();
  const when = (iso: string | null) => (iso ? formatTimestamp(iso, timezone) : BillingPageTexts.never);
  const head = (column: BillingWorklistSort, label: string) => (
    <TableCell sortDirection={sort === column ? order : false} sx={{ whiteSpace: 'nowrap' }}>
      <TableSortLabel
        active={sort === column}
        direction={sort === column ? order : firstOrder(column)}
        onClick={() => onSort(column)}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
  return (
    // The table scrolls sideways inside its frame on a phone rather than losing columns.
    <TableContainer component={Paper} variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={BillingPageTexts.worklistTitle}>
        <TableHead>
          <TableRow>
            {head('patient', BillingTexts.patient)}
            {head('at_risk', BillingPageTexts.atRisk)}
            {head('device_days', BillingPageTexts.deviceDays)}
            {head('minutes', BillingPageTexts.minutes)}
            {head('interactive', BillingPageTexts.liveContact)}
            <TableCell>{BillingPageTexts.action}</TableCell>
            {head('last_reading', BillingPageTexts.lastReading)}
            {head('last_outreach', BillingPageTexts.lastOutreach)}
            <TableCell>{BillingPageTexts.provider}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.patient_id} data-testid={`worklist-row-${r.patient_id}`}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Link component={RouterLink} to={paths.patient(r.patient_id)}>
                  {r.patient_name}
                </Link>
              </TableCell>
              <TableCell>
                {r.at_risk && <Chip size="small" color="warning" label={BillingPageTexts.atRisk} />}
              </TableCell>
              <TableCell sx={{ minWidth: 200 }}>
                {BillingPageTexts.deviceDaysCell(r.device_days, r.days_left)}
                <Typography variant="body2" color="text.secondary">
                  {BillingPageTexts.outlook[r.device_outlook]}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {BillingPageTexts.minutesCell(r.minutes, r.next_minutes)}
              </TableCell>
              <TableCell>{r.interactive ? BillingTexts.yes : BillingTexts.no}</TableCell>
              <TableCell sx={{ minWidth: 220 }}>{billingNeedsText(r.needs)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(r.last_reading_at)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(r.last_outreach_at)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.primary_provider ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
