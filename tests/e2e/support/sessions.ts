/** Session files for the browser tests, built with the same builders as the unit tests. */
import { session } from "../../support/build.ts";
import { VARIANTS, NOT_SESSIONS } from "../../fixtures/variants.ts";
import {
  assistant,
  entry,
  header,
  label,
  modelChange,
  toolCall,
  toolResult,
  user,
  customMessage,
  bash,
} from "../../support/build.ts";

export const BRANCHES = VARIANTS["branches"]!;
export const DAMAGED = VARIANTS["malformed-line"]!;
export const PI_JSON_MODE = NOT_SESSIONS["pi-json-mode"]!.text as string;

/** Strings that would run script if any view rendered session text as HTML unsanitised. */
export const HOSTILE = [
  "<script>window.__pwned = 'script'</script>",
  "<img src=x onerror=\"window.__pwned='img'\">",
  "[click me](javascript:window.__pwned='link')",
  "<iframe src=\"javascript:window.__pwned='iframe'\"></iframe>",
  "<svg onload=\"window.__pwned='svg'\"><circle r=1 /></svg>",
  '"><script>window.__pwned="attr"</script>',
  "<a href=\"javascript:window.__pwned='a'\">a</a>",
  "<details open ontoggle=\"window.__pwned='toggle'\">x</details>",
  "![remote](https://example.com/tracker.png)",
];

export function hostileSession(): string {
  const h = HOSTILE.join("\n\n");
  return session(
    header({ id: "hostile-1", cwd: h }),
    modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
    user("u1", "m1", h),
    assistant("a1", "u1", [{ type: "text", text: h }, toolCall("t1", h, { x: h })]),
    toolResult("r1", "a1", "t1", h),
    { ...bash("b1", "r1", h, h) },
    customMessage("c1", "b1", h, h),
    label("l1", "c1", "u1", h),
    entry("session_info", "s1", "l1", { name: HOSTILE[1] }),
    user("u2", "s1", [
      {
        type: "image",
        data: btoa('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"/>'),
        mimeType: "image/svg+xml",
      },
    ]),
  );
}
