import { Button, List, ListItem, ListItemText } from '@mui/material';
import { Labels, NOTES_PAGE_SIZE, NOTES_PAGE_SIZE_OPTIONS, PatientTexts } from '@rpm/contracts';
import { Suspense, useState } from 'react';
import { useTimezone } from '../../lib/timezone.ts';
import { useNotes } from '../../api/notes/get-notes.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { DialogLoading, PagedList, PatientSection, lazyDialog, usePaging } from './paged-section.tsx';

const AddNote = lazyDialog(() => import('./add-note-dialog.tsx'));

export function NotesSection({ patientId }: { patientId: number }) {
  const { timezone } = useTimezone();
  const paging = usePaging(NOTES_PAGE_SIZE);
  const [open, setOpen] = useState(false);
  const notes = useNotes(patientId, paging.rows, paging.offset);

  return (
    <PatientSection
      headingId="notes-heading"
      title={PatientTexts.clinicalNotes}
      action={
        <Button variant="outlined" onClick={() => setOpen(true)} onPointerEnter={AddNote.preload} onFocus={AddNote.preload}>
          {Labels.addNote}
        </Button>
      }
    >
      <PagedList
        query={notes}
        paging={paging}
        options={NOTES_PAGE_SIZE_OPTIONS}
        errorFallback={PatientTexts.failedToLoadNotes}
        emptyText={PatientTexts.noNotes}
      >
        {(items) => (
          <List dense aria-label={PatientTexts.clinicalNotes}>
            {items.map((n) => (
              <ListItem key={n.id} divider>
                <ListItemText
                  primary={n.content}
                  secondary={
                    <>
                      <span>{formatTimestamp(n.created_at, timezone)}</span> ·{' '}
                      <span>{n.author ?? PatientTexts.unknownAuthor}</span>
                    </>
                  }
                  slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </PagedList>
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <AddNote.Dialog patientId={patientId} onClose={() => setOpen(false)} onAdded={() => paging.setPage(0)} />
        </Suspense>
      )}
    </PatientSection>
  );
}
