import { TextField } from '@mui/material';
import { Labels, PatientTexts, UxTexts, formSchema, hasText, requiredText, type FormValues } from '@rpm/contracts';
import { useWatch } from 'react-hook-form';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { inputProps } from '../../components/form/text-field-props.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAddNote } from '../../api/notes/add-note.ts';
import { SaveDialog } from './save-dialog.tsx';

// Save stays disabled until there is text, so the rule needs no message.
const NoteForm = formSchema({ content: requiredText('') });

export default function AddNoteDialog({
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
