import { Button } from '@mui/material';
import { IngestionTexts } from '@rpm/contracts';
import { Suspense, useState } from 'react';
import { DialogLoading, lazyDialog } from './paged-section.tsx';

const AddReading = lazyDialog(() => import('./add-reading-dialog.tsx'));

/** Add Reading: a blood-pressure reading typed in by staff, stored as a manual reading. */
export function AddReadingButton({ patientId }: { patientId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        onClick={() => setOpen(true)}
        onPointerEnter={AddReading.preload}
        onFocus={AddReading.preload}
      >
        {IngestionTexts.addReading}
      </Button>
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <AddReading.Dialog patientId={patientId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
