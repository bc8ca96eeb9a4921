/** The deep link in the URL fragment: `#session=<pi session id or file name>&leaf=<entry id or line:N>`. */

export interface DeepLink {
  readonly session?: string;
  readonly leaf?: string;
}

export function parseFragment(hash: string): DeepLink {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const session = params.get("session") ?? undefined;
  const leaf = params.get("leaf") ?? undefined;
  return { ...(session ? { session } : {}), ...(leaf ? { leaf } : {}) };
}

export function formatFragment(link: DeepLink): string {
  const params = new URLSearchParams();
  if (link.session) params.set("session", link.session);
  if (link.leaf) params.set("leaf", link.leaf);
  const text = params.toString();
  return text ? `#${text}` : "";
}
