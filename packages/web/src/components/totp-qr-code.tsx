import { Box, Typography } from '@mui/material';
import { AuthLabels } from '@rpm/contracts';
import { useEffect, useId, useState } from 'react';

/**
 * The TOTP set-up QR code, drawn in the browser: the secret never leaves the portal for an
 * outside QR service. The key is also shown as text for people who cannot scan.
 */
export function TotpQrCode({ uri, secret }: { uri: string; secret: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const keyLabelId = useId();
  useEffect(() => {
    let cancelled = false;
    // The QR library loads only when a code is shown: the sign-in page does not carry it otherwise.
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 200 }))
      .then((url) => {
        if (!cancelled) setSrc(url);
      })
      .catch(() => {
        if (!cancelled) setSrc(null);
      });
    return () => {
      cancelled = true;
    };
  }, [uri]);
  // Groups of four are easier to type into an authenticator app.
  const grouped = secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, my: 2 }}>
      {src ? (
        <img src={src} alt={AuthLabels.qrCodeAlt} width={200} height={200} />
      ) : (
        <Box sx={{ width: 200, height: 200, bgcolor: 'action.hover' }} />
      )}
      <Typography variant="body2" id={keyLabelId}>
        {AuthLabels.cantScan}
      </Typography>
      <Box
        component="code"
        aria-labelledby={keyLabelId}
        data-testid="totp-secret"
        sx={{ fontFamily: 'monospace', fontSize: 15, wordBreak: 'break-all', textAlign: 'center' }}
      >
        {grouped}
      </Box>
    </Box>
  );
}

/** For a lazy import where only some visits show a code (the sign-in's MFA set-up step). */
export default TotpQrCode;
