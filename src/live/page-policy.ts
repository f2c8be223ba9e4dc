/**
 * The page's Content-Security-Policy is written once, in index.html's <meta> tag. Servers that serve the
 * build (npm run serve / npm start, the live bridge) send the same policy as a header, with
 * `frame-ancestors` added: a <meta> policy cannot say that. The static lab may be framed by any page (an
 * instructor embeds it in a course page with `?embed`); live mode, which drives a real server with a
 * launch secret in its address, never.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The policy a page's <meta http-equiv="Content-Security-Policy"> declares, or null. */
export function metaContentSecurityPolicy(html: string): string | null {
  const tag = /<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/i.exec(html)?.[0];
  return tag ? (/\scontent="([^"]*)"/i.exec(tag)?.[1] ?? null) : null;
}

/** Who may frame the page: any origin (the static build), or no one (live mode). */
export type Framing = 'any-origin' | 'none';

/** The `frame-ancestors` directive for each: `*` matches every http(s) page. */
export const FRAME_ANCESTORS: Record<Framing, string> = { 'any-origin': 'frame-ancestors *', none: "frame-ancestors 'none'" };

/** The header policy for a built app in `root` (its index.html's policy and who may frame it), or null without one. */
export function headerContentSecurityPolicy(root: string, framing: Framing): string | null {
  const page = join(root, 'index.html');
  const policy = existsSync(page) ? metaContentSecurityPolicy(readFileSync(page, 'utf8')) : null;
  return policy ? `${policy}; ${FRAME_ANCESTORS[framing]}` : null;
}
