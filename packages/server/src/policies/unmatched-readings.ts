/**
 * Unmatched readings may go to a patient only from a source of the patient's organization. A
 * source without one (made before sources had organizations) names no other organization, so its
 * readings may; the device identifier is then the only evidence, as it always was.
 */
export const mayAttachSourceReadings = (sourceOrganizationId: number | null, patientOrganizationId: number): boolean =>
  sourceOrganizationId === null || sourceOrganizationId === patientOrganizationId;
