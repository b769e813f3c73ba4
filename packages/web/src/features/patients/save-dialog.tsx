import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { Labels, PatientTexts, UxTexts } from '@rpm/contracts';
import { useId, useState, type ReactNode } from 'react';

/**
 * The add-record dialog: title, fields, then Cancel and Save. Typed clinical text is not thrown
 * away by a stray Escape, backdrop click or Cancel: while the dialog is `dirty` those ask first.
 */
export function SaveDialog({
  title,
  onClose,
  onSave,
  saveDisabled,
  dirty = false,
  discardTitle,
  children,
}: {
  title: string;
  onClose: () => void;
  onSave: () => Promise<void>;
  saveDisabled: boolean;
  /** Something has been typed that closing would lose. */
  dirty?: boolean;
  /** The question asked before losing it ("Discard this note?"). */
  discardTitle: string;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const requestClose = () => (dirty ? setConfirming(true) : onClose());
  return (
    <>
      <Dialog open onClose={requestClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={requestClose}>{PatientTexts.cancel}</Button>
          <Button variant="contained" onClick={() => void onSave()} disabled={saveDisabled}>
            {Labels.save}
          </Button>
        </DialogActions>
      </Dialog>
      <DiscardDialog
        open={confirming}
        title={discardTitle}
        onKeep={() => setConfirming(false)}
        onDiscard={() => {
          setConfirming(false);
          onClose();
        }}
      />
    </>
  );
}

/** "Discard this …?": Keep editing is the default, so Escape or Enter keeps the text. */
function DiscardDialog({
  open,
  title,
  onKeep,
  onDiscard,
}: {
  open: boolean;
  title: string;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <Dialog
      open={open}
      onClose={onKeep}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      maxWidth="xs"
      slotProps={{ paper: { role: 'alertdialog' } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>{UxTexts.discardBody}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onKeep} autoFocus>
          {UxTexts.keepEditing}
        </Button>
        <Button color="error" onClick={onDiscard}>
          {UxTexts.discard}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
