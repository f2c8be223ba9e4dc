/**
 * The roles the lab logs in as on a real server, so that what a statement of someone else's may do is what
 * PostgreSQL's privileges let that role do: the live console's (console-role-create.sql) and each command
 * line run's (own-role-create.sql). Each gets a random password, known only to this process; the server
 * is sent its SCRAM verifier, never the password.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { bridgeSql } from '../sql/bridge';

/** PostgreSQL's own default (scram_iterations). */
const SCRAM_ITERATIONS = 4096;

export interface LoginSecret {
  password: string;
  /** SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, as PostgreSQL stores a password (RFC 5802, 7677). */
  verifier: string;
}

export function newLoginSecret(): LoginSecret {
  // Hex: nothing in it needs escaping in a URL.
  const password = randomBytes(24).toString('hex');
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, SCRAM_ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  const verifier = `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
  return { password, verifier };
}

/** Names the role (and its new password's verifier) for the DO block that follows, inside the caller's transaction. */
export async function nameLoginRole(client: pg.Client, role: string, secret: LoginSecret | null): Promise<void> {
  await client.query(bridgeSql('login-role'), [role, secret?.verifier ?? null]);
}

/** The same server and database as `url`, logged in as `role`: any user or password the URL carried is replaced. */
export function loginUrl(url: string, role: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = role;
  parsed.password = password;
  // pg lets these query parameters override the URL's own user and password.
  parsed.searchParams.delete('user');
  parsed.searchParams.delete('password');
  return parsed.href;
}

/**
 * A pg_hba.conf line that lets `role` (or `all` roles) log in where `url` points with a password, over the
 * socket or from this host, as the URL connects.
 */
export function hbaLineFor(url: string, role: string): string {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'all';
  const overSocket = parsed.hostname === '' || parsed.searchParams.get('host')?.startsWith('/') === true;
  if (overSocket) return `local ${database} ${role} scram-sha-256`;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  return `host ${database} ${role} ${loopback ? 'samehost' : "<this machine's address>"} scram-sha-256`;
}
