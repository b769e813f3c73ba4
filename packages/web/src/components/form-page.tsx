import { Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { AdminTexts } from '@rpm/contracts';
import type { FormEvent, ReactNode } from 'react';

/** The form's submit button; while the request runs it is disabled and shows a spinner. */
export function SubmitRow({ pending, label = AdminTexts.submit }: { pending: boolean; label?: string }) {
  return (
    <Box>
      <Button
        type="submit"
        variant="contained"
        disabled={pending}
        startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}
      >
        {label}
      </Button>
    </Box>
  );
}

interface FormPageProps {
  /** The page's h1, also the form's accessible name. */
  title: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  pending: boolean;
  maxWidth?: number;
  /** Shown between the title and the form (results, load errors). */
  notices?: ReactNode;
  /** The fields, stacked above the submit button. */
  children: ReactNode;
}

/** An admin "add" page: title, then one card holding the form's fields and its submit button. */
export function FormPage({ title, onSubmit, pending, maxWidth = 520, notices, children }: FormPageProps) {
  return (
    <Box sx={{ maxWidth }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      {notices}
      <Paper component="form" noValidate onSubmit={onSubmit} sx={{ p: 3 }} aria-label={title}>
        <Stack spacing={2}>
          {children}
          <SubmitRow pending={pending} />
        </Stack>
      </Paper>
    </Box>
  );
}
