import { Box, Button, Typography } from '@mui/material';
import { UxTexts } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { paths } from '../config/paths.ts';

interface MessagePageProps {
  title: string;
  body: string;
  /** Where the user can go from here. */
  back: { label: string; to: string };
}

/** A page that explains why there is nothing to show, with a heading and a way back. */
export function MessagePage({ title, body, back }: MessagePageProps) {
  return (
    <Box sx={{ maxWidth: 560, py: { xs: 2, sm: 4 } }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography sx={{ mb: 3 }}>{body}</Typography>
      <Button variant="contained" component={RouterLink} to={back.to}>
        {back.label}
      </Button>
    </Box>
  );
}

/** Any address the portal has no page for. */
export function NotFoundPage() {
  return (
    <MessagePage
      title={UxTexts.notFoundTitle}
      body={UxTexts.notFoundBody}
      back={{ label: UxTexts.backToDashboard, to: paths.dashboard }}
    />
  );
}
