import { EhrLaunchPaths, type EhrLaunchSettings } from '@rpm/contracts';
import type { LaunchSettingsRow } from './ehr-launch.repository.ts';

/** The settings with the two URLs an admin copies into the EHR's app registration. */
export function presentSettings(row: LaunchSettingsRow, publicUrl: string): EhrLaunchSettings {
  return {
    organization_id: row.organization_id,
    iss: row.iss,
    client_id: row.client_id,
    patient_identifier_system: row.patient_identifier_system,
    launch_url: `${publicUrl}${EhrLaunchPaths.launch}`,
    redirect_url: `${publicUrl}${EhrLaunchPaths.callback}`,
  };
}
