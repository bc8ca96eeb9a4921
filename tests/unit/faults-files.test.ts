/**
 * Many files at once: a dropped folder is read to its last entry (readEntries hands out 100 at a time), files
 * that are not sessions or cannot be read are named, opening runs a few at a time, and the messages name every
 * file that was not opened.
 */
import { describe, expect, it } from "vitest";
import { describeLeftOut, filesFromEntries, isModelsJson, listed } from "../../src/ui/files/drop.ts";
import { describeOpened, describeRestart, type OpenOutcome } from "../../src/ui/files/open-report.ts";
import { mapLimited } from "../../src/ui/files/queue.ts";

/** A fake file-system entry, as Chromium's: a folder hands out at most 100 entries per readEntries call. */
type Fake = { name: string; children?: Fake[]; fails?: boolean; listFails?: boolean };

function entryOf(fake: Fake): FileSystemEntry {
  const base = { name: fake.name, fullPath: `/${fake.name}`, isFile: !fake.children, isDirectory: !!fake.children };
  if (!fake.children)
    return {
      ...base,
      file: (ok: (f: File) => void, fail: (e: DOMException) => void) =>
        fake.fails
          ? setTimeout(() =>
              fail(new DOMException("A requested file or directory could not be found", "NotFoundError")),
            )
          : setTimeout(() => ok(new File([`{"name":"${fake.name}"}`], fake.name))),
    } as unknown as FileSystemFileEntry;
  const children = fake.children;
  return {
    ...base,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok: (entries: FileSystemEntry[]) => void, fail: (e: DOMException) => void) =>
          setTimeout(() => {
            if (fake.listFails) return fail(new DOMException("The folder cannot be listed", "NotReadableError"));
            const batch = children.slice(at, at + 100);
            at += batch.length;
            ok(batch.map(entryOf));
          }),
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

const sessions = (n: number, prefix = "s") =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}${String(i).padStart(3, "0")}.jsonl` }));

describe("reading a dropped folder", () => {
  it("reads all 500 files of a folder, past readEntries' 100 per call, and names what it leaves out", async () => {
    const folder: Fake = {
      name: "sessions",
      children: [
        ...sessions(480),
        { name: "--work-demo--", children: [...sessions(20, "d"), { name: "notes.md" }] },
        { name: "README.md" },
        { name: ".DS_Store" },
        { name: "lost.jsonl", fails: true },
        { name: "locked", children: [], listFails: true },
      ],
    };
    const dropped = await filesFromEntries([entryOf(folder), entryOf({ name: "picked.md" })]);
    expect(dropped.files).toHaveLength(501);
    expect(dropped.files.filter((f) => f.inFolder)).toHaveLength(500);
    expect(dropped.files[0]).toMatchObject({ name: "sessions/s000.jsonl", inFolder: true });
    expect(dropped.files.at(-2)?.name).toBe("sessions/--work-demo--/d019.jsonl");
    // A file dropped by itself is taken whatever its name; the loader says what it is.
    expect(dropped.files.at(-1)).toEqual({ file: expect.any(File), name: "picked.md" });
    expect(dropped.skipped).toEqual(["sessions/--work-demo--/notes.md", "sessions/README.md", "sessions/.DS_Store"]);
    expect(dropped.unreadable).toEqual([
      { name: "sessions/lost.jsonl", why: "NotFoundError: A requested file or directory could not be found" },
      { name: "sessions/locked/", why: "NotReadableError: The folder cannot be listed" },
    ]);
    const leftOut = describeLeftOut(dropped)!;
    expect(leftOut.text).toBe(
      "3 files in the dropped folders were not opened because their names do not end in .jsonl, .json, .ndjson, .txt or .log (pi's sessions are .jsonl): sessions/--work-demo--/notes.md, sessions/README.md and sessions/.DS_Store. 2 dropped items could not be read: sessions/lost.jsonl (NotFoundError: A requested file or directory could not be found) and sessions/locked/ (NotReadableError: The folder cannot be listed).",
    );
    expect(leftOut.details).toHaveLength(5);
  });

  it("does not read pi's credentials or settings in a dropped ~/.pi/agent, and keeps its models.json", async () => {
    const agent: Fake = {
      name: "agent",
      children: [
        { name: "auth.json" },
        { name: "settings.json" },
        { name: "models.json" },
        { name: "constructor" }, // a name Object.prototype has: not taken for configuration
        { name: "sessions", children: sessions(2) },
      ],
    };
    const dropped = await filesFromEntries([entryOf(agent)]);
    expect(dropped.files.map((f) => f.name)).toEqual([
      "agent/models.json",
      "agent/sessions/s000.jsonl",
      "agent/sessions/s001.jsonl",
    ]);
    expect(isModelsJson(dropped.files[0]!.name)).toBe(true);
    expect(dropped.config).toEqual([
      { name: "agent/auth.json", what: "pi's credentials" },
      { name: "agent/settings.json", what: "pi's settings" },
    ]);
    expect(describeLeftOut(dropped)?.text).toBe(
      "agent/auth.json (pi's credentials) and agent/settings.json (pi's settings) were not read: not a session. " +
        "1 file in the dropped folders was not opened because its name does not end in .jsonl, .json, .ndjson, " +
        ".txt or .log (pi's sessions are .jsonl): agent/constructor.",
    );
    // Chosen by itself, a file is taken whatever its name: the person asked for it.
    expect((await filesFromEntries([entryOf({ name: "auth.json" })])).files).toHaveLength(1);
  });

  it("says nothing when nothing was left out", async () => {
    const dropped = await filesFromEntries([entryOf({ name: "sessions", children: sessions(3) })]);
    expect(dropped.files).toHaveLength(3);
    expect(describeLeftOut(dropped)).toBeUndefined();
  });
});

describe("opening many files", () => {
  it("runs at most the limit at once and keeps the order of the results", async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimited(
      Array.from({ length: 50 }, (_, i) => i),
      4,
      async (i) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, i % 3));
        running -= 1;
        return i * 2;
      },
    );
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(most).toBe(4);
  });

  it("says in one message how many opened, and names every file that did not", () => {
    const outcomes: OpenOutcome[] = [
      ...Array.from({ length: 496 }, (_, i) => ({ kind: "opened" as const, name: `s${i}.jsonl`, key: `k${i}` })),
      { kind: "not-session", name: "agent/settings.json", fileKind: "json-document" },
      { kind: "not-session", name: "agent/run.jsonl", fileKind: "pi-json-events" },
      { kind: "failed", name: "gone.jsonl", message: "gone.jsonl could not be read (NotFoundError): …" },
      { kind: "interrupted", name: "big.jsonl" },
    ];
    const report = describeOpened(outcomes, {
      names: ["s1.jsonl", "s2.jsonl"],
      reason: "the browser's storage quota is full",
    });
    expect(report.kind).toBe("error");
    expect(report.text).toBe(
      "Opened 496 of 500 files; 2 files in folders were not pi sessions: agent/settings.json (a JSON document) and agent/run.jsonl (pi's --mode json output); 1 file could not be opened: gone.jsonl; 1 file was being read when the worker stopped; 2 files were not saved for the next visit (the browser's storage quota is full); they stay open until you reload.",
    );
    expect(report.details).toEqual([
      "agent/settings.json: a JSON document, not opened",
      "agent/run.jsonl: pi's --mode json output, not opened",
      "gone.jsonl: gone.jsonl could not be read (NotFoundError): …",
      "s1.jsonl: not saved for the next visit",
      "s2.jsonl: not saved for the next visit",
    ]);
    const clean = describeOpened(outcomes.slice(0, 496), undefined);
    expect(clean).toEqual({ kind: "info", text: "Opened 496 of 496 files.", details: [] });
  });

  it("lists a few names and counts the rest", () => {
    expect(listed(["a"])).toBe("a");
    expect(listed(["a", "b"])).toBe("a and b");
    expect(listed(["a", "b", "c", "d", "e", "f", "g"])).toBe("a, b, c, d, e and 2 more");
  });
});

describe("the message after the session worker restarted", () => {
  const base = { reason: "Uncaught Error: boom", lost: [], repeated: false, running: true };
  it("names the file it was reading and says the others were re-opened", () => {
    expect(describeRestart({ ...base, interrupted: [{ name: "big.jsonl" }], reopened: 2 })).toBe(
      "The session worker stopped while reading big.jsonl (Uncaught Error: boom); big.jsonl was not loaded; the other 2 sessions were re-opened.",
    );
    expect(describeRestart({ ...base, interrupted: [{ name: "a.jsonl" }, { name: "b.jsonl" }], reopened: 1 })).toBe(
      "The session worker stopped while reading a.jsonl and b.jsonl (Uncaught Error: boom); they were not loaded; the other session was re-opened.",
    );
  });

  it("says what could not be re-opened, what was not asked again, and when no worker runs", () => {
    const lost = [{ name: "x.jsonl", why: "x.jsonl could not be read (NotReadableError): …" }];
    expect(describeRestart({ ...base, interrupted: [], reopened: 3, lost, repeated: true })).toBe(
      "The session worker stopped (Uncaught Error: boom); the 3 open sessions were re-opened; x.jsonl could not be re-opened (x.jsonl could not be read (NotReadableError): …) and was closed; it stopped twice while working on the same view, so that view was not asked for again.",
    );
    expect(describeRestart({ ...base, interrupted: [{ name: "big.jsonl" }], reopened: 0, running: false })).toBe(
      "The session worker stopped while reading big.jsonl (Uncaught Error: boom); big.jsonl was not loaded; no new worker could be started, so no session can be shown; reload the page to try again.",
    );
  });
});
