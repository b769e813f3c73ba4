import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { Labels } from '@rpm/contracts';
import { useId, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  /** Colours the confirm button for actions that take something away (Disable). */
  destructive?: boolean;
  pending?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * Asks before an action that changes someone's access. MUI's Dialog traps focus and closes on
 * Escape; Cancel takes the focus first, so a stray Enter never confirms.
 */
export function ConfirmDialog({ open, title, body, confirmLabel, destructive, pending, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <Dialog open={open} onClose={pending ? undefined : onCancel} aria-labelledby={titleId} aria-describedby={bodyId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId} component="div">
          {body}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending} autoFocus>
          {Labels.cancel}
        </Button>
        <Button onClick={onConfirm} disabled={pending} variant="contained" color={destructive ? 'error' : 'primary'}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
