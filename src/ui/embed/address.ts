/** `?embed` in the address: the lab without the page's chrome, for a frame in another page. */
const EMBED_PARAM = 'embed';

export function isEmbedAddress(search: string): boolean {
  return new URLSearchParams(search).has(EMBED_PARAM);
}

/** The page's address with `fragment` (a view's link, store/permalink.ts) in place of its own. */
export function withFragment(href: string, fragment: string): string {
  const url = new URL(href);
  url.hash = fragment;
  return url.toString();
}

/** The same view, embedded: the page's address with `?embed` (other query parameters kept). */
export function embedAddress(href: string): string {
  const url = new URL(href);
  url.searchParams.set(EMBED_PARAM, '');
  return url.toString().replace(`${EMBED_PARAM}=`, EMBED_PARAM);
}

/** The same view in the full lab: the address without `?embed`. */
export function fullLabAddress(href: string): string {
  const url = new URL(href);
  url.searchParams.delete(EMBED_PARAM);
  return url.toString();
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The <iframe> an instructor pastes into a course page for the view at `href`. */
export function iframeSnippet(href: string, title: string): string {
  return `<iframe src="${escapeAttribute(embedAddress(href))}" title="${escapeAttribute(`Lease Lab: ${title}`)}" width="960" height="640" style="border: 1px solid #cfd5dc; border-radius: 8px; max-width: 100%;" loading="lazy"></iframe>`;
}
