import { Box, Tab, Tabs } from '@mui/material';
import { BillingPageTexts, BillingTexts } from '@rpm/contracts';
import { useId, type ReactNode } from 'react';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { PageHeader } from '../../components/table-states.tsx';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { useSearchParamsUpdate } from '../../lib/search-params.ts';
import { BillingReportView } from './billing-report.tsx';
import { BillingWorklistView } from './billing-worklist.tsx';
import { SelectFilter } from './billing-filters.tsx';

type View = 'worklist' | 'report';

/** What both views get: the address' filters, who is signed in, and how to change the address. */
export interface BillingViewProps {
  search: URLSearchParams;
  update: (changes: Record<string, string | number | undefined>) => void;
  isAdmin: boolean;
  /** The admin's organization filter (null: all organizations), or null for a provider. */
  organizationId: number | null;
  /** The organization filter, for admins; null for a provider, who sees their own organization. */
  organizationFilter: ReactNode;
}

/**
 * /billing: this month's worklist (who can still earn what), and the report of any month with its
 * totals, CSV, closing, reopening and claims. The view and every filter live in the address, so a
 * reload or a shared link keeps them. An address with a month and no view is a report's link.
 */
export default function BillingPage() {
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const [search, update] = useSearchParamsUpdate({ replace: true });
  const viewParam = search.get('view');
  const view: View =
    viewParam === 'report' || (viewParam !== 'worklist' && search.has('month')) ? 'report' : 'worklist';
  const organizations = useOrganizations();
  const orgParam = Number(search.get('organization_id'));
  const organizationId = isAdmin && orgParam > 0 ? orgParam : null;
  const id = useId();
  const tabId = (v: View) => `${id}-${v}-tab`;
  const panelId = `${id}-panel`;

  const organizationFilter = isAdmin ? (
    <SelectFilter
      label={BillingTexts.organization}
      allLabel={BillingTexts.allOrganizations}
      value={organizationId === null ? '' : String(organizationId)}
      options={organizations.data?.map((o) => ({ value: String(o.id), label: o.name }))}
      // A provider of another organization is no filter for this one.
      onChange={(value) => update({ organization_id: value, provider_id: undefined })}
    />
  ) : null;
  const props: BillingViewProps = { search, update, isAdmin, organizationId, organizationFilter };

  return (
    <Box>
      <PageHeader title={BillingTexts.title} />
      <Tabs
        value={view}
        onChange={(_, next: View) => update({ view: next })}
        aria-label={BillingPageTexts.views}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider', displayPrint: 'none' }}
      >
        <Tab value="worklist" label={BillingPageTexts.worklistTab} id={tabId('worklist')} aria-controls={panelId} />
        <Tab value="report" label={BillingPageTexts.reportTab} id={tabId('report')} aria-controls={panelId} />
      </Tabs>
      <Box role="tabpanel" id={panelId} aria-labelledby={tabId(view)}>
        {view === 'worklist' ? <BillingWorklistView {...props} /> : <BillingReportView {...props} />}
      </Box>
    </Box>
  );
}
