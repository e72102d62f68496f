/**
 * Merging settings layers (reference/claude-code.md §1.2): objects merge key by key, lists merge
 * (union, in precedence order, each entry once), anything else: the higher layer wins.
 */
import { isObject } from './validate.js';

/** Keys whose whole value comes from the highest layer that sets them, lists included. */
const WHOLE_VALUE_KEYS = new Set(['fallbackModel', 'availableModels']);

/** Merges `layers`, given from lowest to highest precedence. Inputs are not changed. */
export function mergeLayers(layers: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const layer of layers) merged = mergeTwo(merged, layer, 0);
  return merged;
}

function mergeTwo(low: Record<string, unknown>, high: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...low };
  for (const [key, value] of Object.entries(high)) {
    const prev = out[key];
    if (depth === 0 && WHOLE_VALUE_KEYS.has(key)) out[key] = value;
    else if (isObject(prev) && isObject(value)) out[key] = mergeTwo(prev, value, depth + 1);
    else if (Array.isArray(prev) && Array.isArray(value)) out[key] = unionLists(value, prev);
    else out[key] = value;
  }
  return out;
}

/** Higher layer's entries first, then the lower layer's entries not already present. */
function unionLists(high: unknown[], low: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of [...high, ...low]) {
    const key = JSON.stringify(item) ?? String(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}
