import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { SessionTexts } from '@rpm/contracts';
import { useNavigate } from 'react-router';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { paths } from '../config/paths.ts';

/** The Session Ended modal's content; `SessionEndedDialog` in session.tsx decides when it shows. */
export default function SessionEndedModal({ open }: { open: boolean }) {
  const { leave } = useAuth();
  const navigate = useNavigate();
  const handleLeave = () => {
    navigate(paths.login, { replace: true });
    void leave();
  };
  return (
    <Dialog
      open={open}
      aria-labelledby="session-ended-title"
      aria-describedby="session-ended-body"
      disableEscapeKeyDown
    >
      <DialogTitle id="session-ended-title">{SessionTexts.endedTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText id="session-ended-body">{SessionTexts.endedBody}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={handleLeave} autoFocus>
          {SessionTexts.leave}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
