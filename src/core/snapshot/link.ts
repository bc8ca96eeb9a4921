/**
 * A snapshot inside a link: compact JSON → deflate-raw (the platform's CompressionStream, in browsers and Node 20)
 * → base64url, in the URL fragment `#snapshot=…`. The fragment never leaves the browser: no server sees it.
 *
 * How long a link may be. Chromium refuses to navigate to URLs longer than 2 MB (its `kMaxURLChars`), and Firefox
 * and Safari handle links of that size too, so 2 MB is the hard limit: a longer link is not offered at all. Long
 * before that, links stop travelling well: Chromium's address bar shows only the first 32 KB
 * (`kMaxURLDisplayChars`), Slack cuts messages at 40,000 characters, Microsoft Teams at about 28 KB, and mail
 * clients wrap or break long lines. A link up to 32,000 characters is offered without a second thought; above it
 * the person is told that chat and mail may cut it and that the file is the safer way to share.
 */
import { err, type Result } from "../result.ts";
import { base64UrlToBytes, bytesToBase64Url } from "./base64.ts";
import { checkSnapshot } from "./parse.ts";
import type { Snapshot } from "./schema.ts";

export const LINK_KEY = "snapshot";
/** Up to here a link travels well through chat apps and mail. */
export const LINK_COMFORTABLE_CHARS = 32_000;
/** Chromium's limit on the length of a URL it will open. */
export const LINK_MAX_CHARS = 2 * 1024 * 1024;
/**
 * A link's snapshot may not unpack to more than this: a 2 MB link of JSON unpacks to some 10–20 MB, and a small
 * hostile link could otherwise inflate to gigabytes.
 */
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

/** Runs bytes through a (de)compression stream; fails when the output passes `limit` bytes. */
async function through(
  bytes: Uint8Array,
  stream: CompressionStream | DecompressionStream,
  limit = Infinity,
): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const written = writer.write(bytes as Uint8Array<ArrayBuffer>).then(() => writer.close());
  written.catch(() => undefined); // the reader reports the same failure
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new RangeError(`it unpacks to more than ${Math.round(limit / 1024 / 1024)} MB`);
    }
    chunks.push(value);
  }
  await written;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** `#snapshot=<base64url of deflate-raw of the JSON>`. */
export async function encodeSnapshotLink(snapshot: Snapshot): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(snapshot));
  const packed = await through(json, new CompressionStream("deflate-raw"));
  return `#${LINK_KEY}=${bytesToBase64Url(packed)}`;
}

/** The snapshot text of a URL, a fragment or a bare `snapshot=…`; undefined when it carries none. */
export function snapshotParam(urlOrFragment: string): string | undefined {
  const hash = urlOrFragment.includes("#") ? urlOrFragment.slice(urlOrFragment.indexOf("#") + 1) : urlOrFragment;
  const match = new RegExp(`(?:^|&)${LINK_KEY}=([^&]*)`).exec(hash);
  return match ? match[1] : undefined;
}

const CUT = "Links pasted into chat or mail are sometimes cut short; ask for the snapshot file instead.";

/** Reads the snapshot a link carries; says what is wrong with the link when it cannot. */
export async function decodeSnapshotLink(urlOrFragment: string, source = "the link"): Promise<Result<Snapshot>> {
  const param = snapshotParam(urlOrFragment);
  if (param === undefined) return err(`${source} holds no snapshot (no "#${LINK_KEY}=" part).`);
  if (param === "") return err(`${source} holds an empty snapshot. ${CUT}`);
  const bytes = base64UrlToBytes(param);
  if (!bytes) return err(`${source} is damaged: its snapshot has characters a snapshot link never holds. ${CUT}`);
  let json: Uint8Array;
  try {
    json = await through(bytes, new DecompressionStream("deflate-raw"), MAX_DECODED_BYTES);
  } catch (error) {
    if (error instanceof RangeError)
      return err(`${source} holds more than a link may (${error.message}); ask for the snapshot file instead.`);
    return err(`${source} is damaged or incomplete (the compressed data does not unpack). ${CUT}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  } catch (error) {
    return err(`${source} is damaged: it unpacks, but not to JSON (${(error as Error).message}). ${CUT}`);
  }
  return checkSnapshot(data, source);
}

export type LinkFit =
  | { readonly fit: "fine"; readonly length: number }
  | { readonly fit: "long"; readonly length: number; readonly message: string }
  | { readonly fit: "too-long"; readonly length: number; readonly message: string };

/** Whether a link of this many characters travels well, and what to say when it does not. */
export function linkFit(length: number): LinkFit {
  const chars = length.toLocaleString("en-US");
  if (length > LINK_MAX_CHARS)
    return {
      fit: "too-long",
      length,
      message: `The link would be ${chars} characters: more than the 2 MB browsers open. Share the snapshot file instead.`,
    };
  if (length > LINK_COMFORTABLE_CHARS)
    return {
      fit: "long",
      length,
      message: `The link is ${chars} characters. Browsers open it, but chat apps and mail may cut links longer than ${LINK_COMFORTABLE_CHARS.toLocaleString("en-US")} characters (Slack stops at 40,000): the snapshot file is the safer way to share it.`,
    };
  return { fit: "fine", length };
}
