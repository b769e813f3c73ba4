import { Button, TableCell, TableRow } from '@mui/material';
import { OUTREACH_PAGE_SIZE, OutreachTexts } from '@rpm/contracts';
import { Suspense, useState } from 'react';
import { useOutreach } from '../../api/outreach/get-outreach.ts';
import { DataTable } from '../../components/table-states.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { DialogLoading, PagedList, PatientSection, lazyDialog, usePaging } from './paged-section.tsx';

const RecordOutreach = lazyDialog(() => import('./record-outreach-dialog.tsx'));
const PAGE_SIZES = [OUTREACH_PAGE_SIZE, 25, 50] as const;
const columns = [OutreachTexts.when, OutreachTexts.outcome, OutreachTexts.notes, OutreachTexts.by];

/** Outreach to the patient (calls, messages, device problems, replacements), kept on the record. */
export function OutreachSection({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const paging = usePaging(OUTREACH_PAGE_SIZE);
  const [open, setOpen] = useState(false);
  const outreach = useOutreach(patientId, paging.rows, paging.offset);
  return (
    <PatientSection
      headingId="outreach-heading"
      title={OutreachTexts.title}
      action={
        <Button
          variant="outlined"
          onClick={() => setOpen(true)}
          onPointerEnter={RecordOutreach.preload}
          onFocus={RecordOutreach.preload}
        >
          {OutreachTexts.record}
        </Button>
      }
    >
      <PagedList
        query={outreach}
        paging={paging}
        options={PAGE_SIZES}
        errorFallback={OutreachTexts.failedToLoad}
        emptyText={OutreachTexts.none}
      >
        {(items) => (
          <DataTable label={OutreachTexts.title} columns={columns} contained={false}>
            {items.map((o) => (
              <TableRow key={o.id}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(o.created_at, timezone)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{OutreachTexts.outcomes[o.outcome]}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', minWidth: 200 }}>{o.notes ?? ''}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{o.user_name ?? OutreachTexts.unknownAuthor}</TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </PagedList>
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <RecordOutreach.Dialog
            patientId={patientId}
            onClose={() => setOpen(false)}
            onRecorded={() => paging.setPage(0)}
          />
        </Suspense>
      )}
    </PatientSection>
  );
}
