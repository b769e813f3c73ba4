/*
 * Known exceptions to the architecture rules in eslint.config.js, each with its reason. The list
 * is meant to shrink: remove an entry when its code is fixed (lint then keeps it fixed). Adding
 * one needs the same review as changing a rule.
 */

/** A module importing a private file of another module (normally only its index.ts). */
export const privateImports = [];

/** Files outside repositories and db/ that still send SQL themselves. */
export const sqlOutsideRepositories = [
  {
    file: 'packages/server/scripts/seed-demo.ts',
    reason:
      "the demo seed still inserts its demo patients, devices and readings with SQL of its own; it is to create them through the modules' services",
  },
];
