/**
 * `wildcard` in `pattern` matches any run of text. Greedy with one backtrack point: O(n·m) at worst,
 * never exponential whatever the number of wildcards (a regular expression could be).
 */
export function wildcardMatch(pattern: string, text: string, wildcard = '*'): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < text.length) {
    if (i < pattern.length && pattern[i] === wildcard) {
      star = i++;
      mark = j;
    } else if (i < pattern.length && pattern[i] === text[j]) {
      i++;
      j++;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (i < pattern.length && pattern[i] === wildcard) i++;
  return i === pattern.length;
}
