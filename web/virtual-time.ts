/** Formats a virtual time in milliseconds as `m:ss.SSS` (or `h:mm:ss.SSS` from one hour on). */
export function formatVirtualTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms));
  const millis = total % 1000;
  const seconds = Math.floor(total / 1000) % 60;
  const minutes = Math.floor(total / 60_000) % 60;
  const hours = Math.floor(total / 3_600_000);
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  const tail = `${pad(seconds, 2)}.${pad(millis, 3)}`;
  return hours > 0 ? `${hours}:${pad(minutes, 2)}:${tail}` : `${minutes}:${tail}`;
}
