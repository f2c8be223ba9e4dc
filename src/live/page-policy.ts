/**
 * The page's Content-Security-Policy is written once, in index.html's <meta> tag. Servers that serve the
 * build (npm run serve, the live bridge) send the same policy as a header, with `frame-ancestors 'none'`
 * added: a <meta> policy cannot say that.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The policy a page's <meta http-equiv="Content-Security-Policy"> declares, or null. */
export function metaContentSecurityPolicy(html: string): string | null {
  const tag = /<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/i.exec(html)?.[0];
  return tag ? (/\scontent="([^"]*)"/i.exec(tag)?.[1] ?? null) : null;
}

/** The header policy for a built app in `root` (its index.html's policy, framing refused), or null without one. */
export function headerContentSecurityPolicy(root: string): string | null {
  const page = join(root, 'index.html');
  const policy = existsSync(page) ? metaContentSecurityPolicy(readFileSync(page, 'utf8')) : null;
  return policy ? `${policy}; frame-ancestors 'none'` : null;
}
