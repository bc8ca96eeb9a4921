/** How much session a tab can hold (src/ui/files/memory.ts): files that would run it out of memory are refused. */
import { describe, expect, it } from "vitest";
import { heapLimit, sessionRoom, tooBigToHold } from "../../src/ui/files/memory.ts";

const MB = 1024 ** 2;
const GB = 1024 ** 3;

describe("room for sessions in a tab", () => {
  it("is a quarter of the heap limit the browser reports, 4 GB where it reports none", () => {
    expect(sessionRoom(4 * GB)).toBe(GB);
    expect(sessionRoom(4_395_630_592)).toBe(1_098_907_648); // Chromium on a 16 GB desktop
    expect(heapLimit()).toBe(4 * GB); // Node has no performance.memory
  });

  it("lets a file in while it fits beside what is open, the limit included", () => {
    expect(tooBigToHold("a.jsonl", 600 * MB, 0, GB)).toBeUndefined();
    expect(tooBigToHold("a.jsonl", 600 * MB, 424 * MB, GB)).toBeUndefined();
  });

  it("refuses a file too big for any tab, naming it, its size, the room and where else to read it", () => {
    expect(tooBigToHold("colossal.jsonl", 2 * GB, 0, GB)).toBe(
      "colossal.jsonl (2.0 GB) was not opened: a browser tab has room for about 1.0 GB of sessions (showing a " +
        "session and its whole payload takes up to four times its size in memory, and a tab that runs out of memory " +
        "is closed with everything in it). Read it with the command line (npm run cli), which is not bound by a " +
        "tab's memory.",
    );
  });

  it("says how much the open sessions take when closing some would make room", () => {
    const why = tooBigToHold("b.jsonl", 600 * MB, 425 * MB, GB);
    expect(why).toMatch(/^b\.jsonl \(600 MB\) was not opened: a browser tab has room for about 1\.0 GB of sessions/);
    expect(why).toMatch(/; the open sessions take 425 MB of it\. Close some to make room, or read it with the command/);
  });
});
