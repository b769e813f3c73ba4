/**
 * What the server writes into a billing row's `missing` list beyond BillingTexts: the live contact
 * the cheapest next management code needs, named with that code (99470 at 10 minutes, 99457 from
 * 20), so the page never asks for more minutes where one call would earn a code.
 */
export const BillingHints = {
  contactFor: (code: string) => `an interactive contact for ${code}`,
} as const;
