import { Button, List, ListItem, ListItemText, TextField } from '@mui/material';
import {
  Labels,
  NOTES_PAGE_SIZE,
  NOTES_PAGE_SIZE_OPTIONS,
  PatientTexts,
  UxTexts,
  formSchema,
  hasText,
  requiredText,
  type FormValues,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { inputProps } from '../../components/form/text-field-props.ts';
import { errorMessage } from '../../api/errors.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAddNote } from '../../api/notes/add-note.ts';
import { useNotes } from '../../api/notes/get-notes.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { PagedList, PatientSection, SaveDialog, usePaging } from './paged-section.tsx';

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
        <Button variant="outlined" onClick={() => setOpen(true)}>
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
      {open && <AddNoteDialog patientId={patientId} onClose={() => setOpen(false)} onAdded={() => paging.setPage(0)} />}
    </PatientSection>
  );
}

// Save stays disabled until there is text, so the rule needs no message.
const NoteForm = formSchema({ content: requiredText('') });

function AddNoteDialog({
  patientId,
  onClose,
  onAdded,
}: {
  patientId: number;
  onClose: () => void;
  onAdded: () => void;
}) {
  const form = useSchemaForm<FormValues<typeof NoteForm>>(NoteForm, { defaultValues: { content: '' } });
  const content = useWatch({ control: form.control, name: 'content' });
  const add = useAddNote(patientId);
  const { enqueueSnackbar } = useSnackbar();

  const handleSave = form.handleSubmit(async ({ content }) => {
    try {
      await add.mutateAsync({ content });
      enqueueSnackbar(PatientTexts.noteAdded, { variant: 'success' });
      onAdded();
      onClose();
    } catch (err) {
      // The dialog stays open with the text, so nothing typed is lost.
      enqueueSnackbar(errorMessage(err, PatientTexts.noteFailed), { variant: 'error' });
    }
  });

  return (
    <SaveDialog
      title={Labels.addNote}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={!hasText(content) || add.isPending}
      dirty={hasText(content)}
      discardTitle={UxTexts.discardNoteTitle}
    >
      <TextField
        autoFocus
        multiline
        minRows={4}
        fullWidth
        margin="dense"
        label={PatientTexts.noteContent}
        {...inputProps(form, 'content')}
      />
    </SaveDialog>
  );
}
