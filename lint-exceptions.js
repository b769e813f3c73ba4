/*
 * Known exceptions to the architecture rules in eslint.config.js, each with its reason. The list
 * is meant to shrink: remove an entry when its code is fixed (lint then keeps it fixed). Adding
 * one needs the same review as changing a rule.
 */

/** A module importing a private file of another module (normally only its index.ts). */
export const privateImports = [
  // The FHIR server registers the bulk export inside its own prefix (so that the export's errors
  // are its OperationOutcomes), so the FHIR module's index imports the bulk-export module: the
  // export importing that index back would be a cycle. It takes the FHIR caller check and the
  // presenters from their files instead, until the registration moves to the composition.
  { from: 'bulk-export', to: 'fhir', file: 'fhir.auth.ts' },
  { from: 'bulk-export', to: 'fhir', file: 'fhir.presenter.ts' },
];

/** Files outside repositories and db/ that still send SQL themselves. */
export const sqlOutsideRepositories = [
  {
    file: 'packages/server/scripts/seed-demo.ts',
    reason:
      "the demo seed still inserts its demo patients, devices and readings with SQL of its own; it is to create them through the modules' services",
  },
];
