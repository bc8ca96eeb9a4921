/** Small display formatters shared by the shell's components. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * Writes what `toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })` does, set up once: that
 * call sets up a formatter anew each time, and the session list writes a date per row.
 */
let dateFormat: Intl.DateTimeFormat | undefined;

export function formatDate(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  return dateFormat.format(date);
}
