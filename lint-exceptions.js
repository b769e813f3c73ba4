/*
 * Known exceptions to the architecture rules in eslint.config.js, each with its reason. The list
 * is meant to shrink: remove an entry when its code is fixed (lint then keeps it fixed). Adding
 * one needs the same review as changing a rule.
 */

/** A module importing a private file of another module (normally only its index.ts). */
export const privateImports = [
  {
    from: 'alerts',
    to: 'notes',
    file: 'notes.repository.ts',
    reason:
      'closing an alert writes its note through the notes repository; it is to go through the notes service (with the file split of alerts.service.ts)',
  },
  {
    from: 'alerts',
    to: 'tracking',
    file: 'tracking.repository.ts',
    reason:
      'closing an alert logs tracking time through the tracking repository; it is to go through the tracking service (with the file split of alerts.service.ts), so that its closed-month rule holds there too',
  },
];

/** Files outside repositories and db/ that still send SQL themselves. */
export const sqlOutsideRepositories = [
  {
    file: 'packages/server/scripts/seed-demo.ts',
    reason:
      "the demo seed still inserts its demo patients, devices and readings with SQL of its own; it is to create them through the modules' services",
  },
];
