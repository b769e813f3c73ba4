import {
  Chip,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
  useMediaQuery,
  type SxProps,
  type Theme,
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
import { useBillingWorklist } from '../../api/billing/get-billing-worklist.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useProviders } from '../../api/organizations/get-providers.ts';
import { usePrograms } from '../../api/programs/get-programs.ts';
import { SortFields } from '../../components/sort-fields.tsx';
import { QueryStates, stackedOnPhone } from '../../components/table-states.tsx';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { FilterBar, MonthField, SelectFilter } from './billing-filters.tsx';
import { MONTH } from './billing-month.ts';
import { billingPageOf, BillingPager } from './billing-pager.tsx';
import type { BillingViewProps } from './billing-page.tsx';
import { firstOrder, isWorklistSort } from './worklist-sort.ts';
import { PatientCell } from './patient-cell.tsx';

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
  // On a phone the heading row is read by screen readers only, so the sort has fields of its own.
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });

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
        {phone && (
          <SortFields
            options={SORTABLE}
            sort={sort}
            order={order}
            ownOrderLabel={BillingPageTexts.serverOrder}
            onSort={(column) =>
              // A column starts in the direction its heading's first click would.
              update(
                column === null ? { sort: undefined, order: undefined } : { sort: column, order: firstOrder(column) },
              )
            }
            onOrder={(next) => update({ order: next })}
          />
        )}
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
              sortable={!phone}
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

/** The worklist's columns in order, with the sort each heading asks the server for (if any). */
const COLUMNS: readonly { label: string; sort: BillingWorklistSort | null }[] = [
  { label: BillingTexts.patient, sort: 'patient' },
  { label: BillingPageTexts.atRisk, sort: 'at_risk' },
  { label: BillingPageTexts.deviceDays, sort: 'device_days' },
  { label: BillingPageTexts.minutes, sort: 'minutes' },
  { label: BillingPageTexts.liveContact, sort: 'interactive' },
  { label: BillingPageTexts.action, sort: null },
  { label: BillingPageTexts.lastReading, sort: 'last_reading' },
  { label: BillingPageTexts.lastOutreach, sort: 'last_outreach' },
  { label: BillingPageTexts.provider, sort: null },
];
const SORTABLE = COLUMNS.flatMap((c) => (c.sort === null ? [] : [{ value: c.sort, label: c.label }]));
/**
 * The table's cell rules, set once on the table rather than on each cell of every row. On a laptop
 * beside the menu nine columns fit when the cells keep narrow sides and a date may put its time on a
 * second line; the minutes stay on one. On a phone they do not fit at all:
 * each patient becomes a block of labelled lines.
 */
const CELLS: SxProps<Theme> = [
  {
    '& th, & td': { px: 1 },
    '& td:nth-of-type(4)': { whiteSpace: 'nowrap' },
    '& td:nth-of-type(3)': { minWidth: 170 },
    '& td:nth-of-type(6)': { minWidth: 170 },
  },
  stackedOnPhone(COLUMNS.map((c) => c.label)),
].flat();

interface WorklistTableProps {
  rows: BillingWorklistRow[];
  sort: BillingWorklistSort | null;
  order: SortOrder;
  /** The headings are buttons that sort (not on a phone, where they are not shown). */
  sortable: boolean;
  onSort: (column: BillingWorklistSort) => void;
}

function WorklistTable({ rows, sort, order, sortable, onSort }: WorklistTableProps) {
  const { timezone } = useTimezone();
  const when = (iso: string | null) => (iso ? formatTimestamp(iso, timezone) : BillingPageTexts.never);
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={BillingPageTexts.worklistTitle} sx={CELLS}>
        <TableHead>
          <TableRow>
            {COLUMNS.map(({ label, sort: column }) => (
              <TableCell key={label} sortDirection={column !== null && sort === column ? order : false}>
                {column !== null && sortable ? (
                  <TableSortLabel
                    active={sort === column}
                    direction={sort === column ? order : firstOrder(column)}
                    onClick={() => onSort(column)}
                  >
                    {label}
                  </TableSortLabel>
                ) : (
                  label
                )}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.patient_id} data-testid={`worklist-row-${r.patient_id}`}>
              <PatientCell row={r} />
              <TableCell>
                {r.at_risk && <Chip size="small" color="warning" label={BillingPageTexts.atRisk} />}
              </TableCell>
              <TableCell>
                {r.period_start === null
                  ? BillingPageTexts.noDevicePeriod
                  : BillingPageTexts.deviceDaysCell(r.device_days, r.days_left)}
                <Typography variant="body2" color="text.secondary">
                  {BillingPageTexts.outlook[r.device_outlook]}
                </Typography>
              </TableCell>
              <TableCell>{BillingPageTexts.minutesCell(r.minutes, r.next_minutes)}</TableCell>
              <TableCell>{r.interactive ? BillingTexts.yes : BillingTexts.no}</TableCell>
              <TableCell>{billingNeedsText(r.needs)}</TableCell>
              <TableCell>{when(r.last_reading_at)}</TableCell>
              <TableCell>{when(r.last_outreach_at)}</TableCell>
              <TableCell>{r.primary_provider ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
