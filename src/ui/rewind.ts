/** Text helpers of the rewind list (the marks themselves are base/prompt-marks.ts). */

export function oneLine(text: string, max = 60): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
