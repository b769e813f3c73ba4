import { Button } from '@mui/material';
import { ObservationTexts, measurementKind, type DisplayUnits } from '@rpm/contracts';
import { Suspense, useState } from 'react';
import { DialogLoading, lazyDialog } from './paged-section.tsx';

const AddObservation = lazyDialog(() => import('./add-observation-dialog.tsx'));

/** Opens the add-measurement dialog, set to `kind` when the button belongs to a kind's panel. */
export function AddObservationButton({
  patientId,
  kind,
  displayUnits,
}: {
  patientId: number;
  kind?: string;
  displayUnits: DisplayUnits | undefined;
}) {
  const [open, setOpen] = useState(false);
  const label = kind ? ObservationTexts.addReadingOf(measurementKind(kind)?.label ?? kind) : ObservationTexts.addMeasurement;
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        onClick={() => setOpen(true)}
        onPointerEnter={AddObservation.preload}
        onFocus={AddObservation.preload}
      >
        {label}
      </Button>
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <AddObservation.Dialog
            patientId={patientId}
            kind={kind}
            displayUnits={displayUnits}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
