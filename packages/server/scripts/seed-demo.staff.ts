/**
 * The demo's organizations and staff, made by an admin through the portal's services as the admin
 * pages make them: the portal's first admin (ADMIN_EMAIL) acts, found as a sign-in finds them
 * (their user-pool account, then their portal user). Staff get a pool account and a portal user
 * from the users service, then a password of their own in the pool, printed once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { normalizeEmail, type AdminUser, type Role } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { SignedInContext } from '../src/kernel/request-context.ts';
import { provisionFirstAdmin, type Identity } from '../src/modules/identity/index.ts';
import { presentCurrentUser, userOfIdentity } from '../src/modules/me/index.ts';
import { createOrganization, getOrganizations } from '../src/modules/organizations/index.ts';
import { createUser, getUsers } from '../src/modules/users/index.ts';
import { actorOf, type Actor } from '../src/policies/actor.ts';
import { mayOpenSession } from '../src/policies/sessions.ts';

export const ORGANIZATIONS = ['Northside Cardiology', 'Lakeside Family Practice'] as const;

export interface SeedDeps {
  db: pg.Pool;
  identity: Identity;
  say: (line: string) => void;
}

/** What a service receives for a request of `actor`: one request id per call, as the app gives. */
export function contextOf(actor: Actor): SignedInContext {
  return { actor, ip: '127.0.0.1', userAgent: 'seed-demo', requestId: randomUUID() };
}

/**
 * The portal's first admin as the actor of the seeding: made able to sign in first, as the
 * portal's start does (a temporary password is then printed once), then found as the token
 * exchange finds a signed-in person.
 */
export async function actingAdmin(
  deps: SeedDeps,
  first: { email: string; password: string | undefined; log: FastifyBaseLogger },
): Promise<Actor> {
  await provisionFirstAdmin({
    identity: deps.identity,
    db: deps.db,
    log: first.log,
    email: first.email,
    password: first.password,
  });
  const email = normalizeEmail(first.email);
  const account = await deps.identity.directory.getUser(email);
  const row = account ? await userOfIdentity(deps.db, account) : null;
  if (!account || !row || !mayOpenSession(row)) {
    throw new Error(
      `the portal's first admin ${email} (PORTAL_ADMIN_EMAIL) is not an active portal user: nobody to seed as`,
    );
  }
  const user = presentCurrentUser(row);
  return actorOf({
    id: user.id,
    email: user.email,
    role: user.role,
    organizationId: user.organization_id,
    cognitoUsername: account.username,
  });
}

/** The demo organizations' ids, each created unless one of its name exists (ignoring case and blanks). */
export async function seedOrganizations(deps: SeedDeps, admin: Actor): Promise<number[]> {
  const key = (name: string) => name.trim().toLowerCase();
  const existing = new Map((await getOrganizations(deps.db, contextOf(admin))).map((o) => [key(o.name), o.id]));
  const ids: number[] = [];
  for (const name of ORGANIZATIONS) {
    ids.push(existing.get(key(name)) ?? (await createOrganization(deps.db, contextOf(admin), name)).id);
  }
  return ids;
}

interface StaffMember {
  email: string;
  role: Role;
  organizationId: number;
  first: string;
  last: string;
  title: string | null;
}

const actorOfUser = (u: AdminUser): Actor =>
  actorOf({ id: u.id, email: u.email, role: u.role, organizationId: u.organization_id, cognitoUsername: null });

/**
 * The demo admin and, in each organization, a doctor and a nurse: answers the providers' actors
 * per organization ([doctor, nurse]). Staff already there keep their password.
 */
export async function seedStaff(deps: SeedDeps, admin: Actor, orgIds: number[]): Promise<Actor[][]> {
  const users = new Map((await getUsers(deps, contextOf(admin))).map((u) => [normalizeEmail(u.email), u]));
  const staff = async (s: StaffMember): Promise<Actor> => {
    const found = users.get(normalizeEmail(s.email));
    if (found) {
      deps.say(`  ${s.role.padEnd(8)} ${s.email} (already there, password unchanged)`);
      return actorOfUser(found);
    }
    const body = {
      email: s.email,
      role: s.role,
      organization_id: s.organizationId,
      first_name: s.first,
      last_name: s.last,
      title: s.title,
    };
    const { user } = await createUser(deps, contextOf(admin), body);
    // A password of the demo's own instead of the invitation's temporary one, so the printed one
    // signs in at once.
    const account = await deps.identity.directory.getUser(normalizeEmail(s.email));
    if (!account) throw new Error(`the user pool has no account for ${s.email} after creating it`);
    const password = `Demo-${randomBytes(5).toString('hex')}-9!`;
    await deps.identity.directory.setPassword(account.username, password, true);
    deps.say(`  ${s.role.padEnd(8)} ${s.email}  password: ${password}`);
    return actorOfUser(user);
  };

  deps.say('Staff:');
  await staff({
    email: 'demo.admin@example.com',
    role: 'admin',
    organizationId: orgIds[0]!,
    first: 'Dana',
    last: 'Admin',
    title: null,
  });
  const people = [
    { slug: 'northside', doctor: ['Grace', 'Hopper'], nurse: ['Florence', 'Nightingale'] },
    { slug: 'lakeside', doctor: ['Omar', 'Khan'], nurse: ['Mary', 'Seacole'] },
  ] as const;
  const providers: Actor[][] = [];
  for (const [i, organizationId] of orgIds.entries()) {
    const { slug, doctor, nurse } = people[i]!;
    providers.push([
      await staff({
        email: `dr.${slug}.a@example.com`,
        role: 'provider',
        organizationId,
        first: doctor[0],
        last: doctor[1],
        title: 'MD',
      }),
      await staff({
        email: `nurse.${slug}@example.com`,
        role: 'provider',
        organizationId,
        first: nurse[0],
        last: nurse[1],
        title: 'RN',
      }),
    ]);
  }
  return providers;
}
